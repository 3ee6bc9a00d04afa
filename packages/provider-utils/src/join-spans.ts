import { compactionMetadataOf, type Message, withCompactionMetadata } from '@compaction/core';

/** A span of converted messages that must stay in one turn: from `first` up to, not including, `end`. */
export interface MessageSpan {
  first: number;
  end: number;
}

/**
 * `messages` with every message of each span, and the tool messages right after a span (they answer its last
 * message), marked `metadata.compaction.joinsPrevious`, so that turn grouping keeps the span whole: the
 * converters use it where a message refers to an id that an earlier message opened. Messages already marked,
 * and the input array, are left as they are.
 */
export function joinSpans(messages: readonly Message[], spans: Iterable<MessageSpan>): Message[] {
  const joined = [...messages];
  for (const { first, end } of spans) {
    let last = end;
    while (joined[last]?.role === 'tool') last++;
    for (let index = first; index < last; index++) {
      if (compactionMetadataOf(joined[index]!)?.joinsPrevious !== true) {
        joined[index] = withCompactionMetadata(joined[index]!, { joinsPrevious: true });
      }
    }
  }
  return joined;
}
