import { compactionMetadataOf, type Message } from '@compaction/core';

/**
 * Recognises a part that holds a provider's own compaction (an Anthropic `compaction` block, an OpenAI
 * Responses `compaction` item) as the converters keep it: verbatim in the part's metadata.
 */
export type IsNativeCompactionPart = (part: Message['content'][number]) => boolean;

/**
 * The working context from its latest provider compaction on. Both APIs document that what precedes the
 * latest compaction block or item is no longer needed: Anthropic drops it itself ("The API automatically drops
 * all content blocks prior to the compaction block") and refuses a compaction block that is not the first
 * block of the conversation; OpenAI lets the client drop the items before the most recent compaction item. The
 * message holding the compaction keeps its parts from the compaction on (a new object only when parts are cut);
 * the messages after it, and leading system messages, are kept as they are. A window a native compaction
 * returned (OpenAI's `responses.compact`: the user messages, then the compaction item, all marked as a summary
 * by the `native` strategy) is kept whole: the guide asks that it be passed on unpruned. Without a compaction
 * the list is returned unchanged.
 */
export function fromNativeCompaction(
  messages: readonly Message[],
  isCompactionPart: IsNativeCompactionPart,
): readonly Message[] {
  let index = messages.length - 1;
  let partIndex = -1;
  for (; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === 'system') continue;
    partIndex = findLastIndex(message.content, isCompactionPart);
    if (partIndex !== -1) break;
  }
  if (index < 0) return messages;
  const holder = messages[index]!;
  const start = isSummary(holder) ? windowStart(messages, index) : index;
  const head = messages.slice(0, start).filter((message) => message.role === 'system');
  const opening =
    partIndex === 0 ? holder : ({ ...holder, content: holder.content.slice(partIndex) } as Message);
  if (head.length === start && opening === holder) return messages;
  return [...head, ...messages.slice(start, index), opening, ...messages.slice(index + 1)];
}

function isSummary(message: Message): boolean {
  return compactionMetadataOf(message)?.kind === 'summary';
}

/** Where the window that ends with the compaction at `index` starts: its messages are marked as a summary. */
function windowStart(messages: readonly Message[], index: number): number {
  let start = index;
  while (start > 0 && messages[start - 1]!.role !== 'system' && isSummary(messages[start - 1]!)) start--;
  return start;
}

function findLastIndex<Item>(items: readonly Item[], matches: (item: Item) => boolean): number {
  for (let index = items.length - 1; index >= 0; index--) if (matches(items[index]!)) return index;
  return -1;
}
