import { compactionMetadataOf, type Message } from '@compaction/core';

/**
 * Index of the first `user` message compaction did not write (no summary or removal marker), or -1: the
 * request itself when the opening holds one. What a strategy keeps verbatim is the whole opening (core's
 * `openingIndexes`); this names the message a summary is placed around.
 */
export function firstUserMessageIndex(messages: readonly Message[]): number {
  return messages.findIndex((message) => {
    if (message.role !== 'user') return false;
    const kind = compactionMetadataOf(message)?.kind;
    return kind !== 'summary' && kind !== 'marker';
  });
}
