import { compactionMetadataOf, type Message } from '@compaction/core';

/** Whether a message is a summary an earlier compaction wrote (its `metadata.compaction.kind` is `summary`). */
export function isSummary(message: Message): boolean {
  return compactionMetadataOf(message)?.kind === 'summary';
}

/**
 * Whether a part of `message` is, on its own, an earlier summary: a text part that starts with a summary's
 * first line. A provider's format joins messages of the same role into one (Anthropic Messages joins a summary
 * with the model turn after it, Responses reads a message and the calls after it as one turn), so a summary
 * read back from the wire may share its message with other parts.
 */
export function isSummaryPart(message: Message, part: Message['content'][number]): boolean {
  return part.type === 'text' && isSummary({ role: message.role, content: [part] } as Message);
}
