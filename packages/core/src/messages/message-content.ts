import { compactionMetadataOf, isCompactionProduct } from './compaction-metadata.js';
import type { Message, ToolCallPart } from './message.js';

/** The tool calls of a message (empty unless it is an assistant message that calls tools). */
export function toolCallsOf(message: Message): ToolCallPart[] {
  if (message.role !== 'assistant') return [];
  return message.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
}

/** The plain text of a message's text parts, joined by newlines. */
export function textOf(message: Message): string {
  const texts: string[] = [];
  for (const part of message.content) if (part.type === 'text') texts.push(part.text);
  return texts.join('\n');
}

/** A `user` message compaction did not write: a summary or marker in the user role is no request. */
function isUserRequest(message: Message): boolean {
  if (message.role !== 'user') return false;
  const kind = compactionMetadataOf(message)?.kind;
  return kind !== 'summary' && kind !== 'marker';
}

/** Index of the newest `user` message compaction did not write (no summary or marker) or -1; strategies keep it. */
export function latestUserMessageIndex(messages: readonly Message[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    if (isUserRequest(messages[index]!)) return index;
  }
  return -1;
}

/**
 * Indexes of the opening, the task every strategy keeps verbatim: everything the client sent before the first
 * model (assistant) message (system and developer messages, environment or context messages, the request),
 * less the summaries and removal notes earlier compactions put there.
 */
export function openingIndexes(messages: readonly Message[]): number[] {
  const indexes: number[] = [];
  for (let index = 0; index < messages.length && messages[index]!.role !== 'assistant'; index++) {
    if (!isCompactionProduct(messages[index]!)) indexes.push(index);
  }
  return indexes;
}
