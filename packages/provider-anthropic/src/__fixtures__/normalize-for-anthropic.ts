import type { Message } from '@compaction/core';

/**
 * What a core conversation looks like after a trip through the Messages API shape: ids and core-only
 * metadata (pins, compaction marks) are gone, since a request has no place for them, and consecutive
 * messages of the same role are one message (a user turn holds all of its tool results).
 */
export function normalizeForAnthropic(messages: Message[]): Message[] {
  const normalized: Message[] = [];
  for (const message of messages) {
    const stripped = { role: message.role, content: message.content } as Message;
    const last = normalized.at(-1);
    if (last !== undefined && last.role === stripped.role) {
      normalized[normalized.length - 1] = {
        role: last.role,
        content: [...last.content, ...stripped.content],
      } as Message;
    } else normalized.push(stripped);
  }
  return normalized;
}
