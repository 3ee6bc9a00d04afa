import { compactionMetadataOf, type Message } from '@compaction/core';

/** Whether a message is a summary an earlier compaction wrote (its `metadata.compaction.kind` is `summary`). */
export function isSummary(message: Message): boolean {
  return compactionMetadataOf(message)?.kind === 'summary';
}
