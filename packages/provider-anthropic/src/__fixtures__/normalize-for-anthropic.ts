import type { Message } from '@compaction/core';

/**
 * What a core conversation looks like after a trip through the Messages API shape: ids and core-only
 * metadata (pins, compaction marks) are gone, since a request has no place for them, and consecutive
 * messages of the same role are one message (a user turn holds all of its tool results); an assistant
 * message merged from several opens with its reasoning, as `toAnthropicRequest` writes it.
 */
export function normalizeForAnthropic(messages: Message[]): Message[] {
  const normalized: Message[] = [];
  const merged = new Set<Message>();
  for (const message of messages) {
    const stripped = { role: message.role, content: message.content } as Message;
    const last = normalized.at(-1);
    if (last !== undefined && last.role === stripped.role) {
      const joined = { role: last.role, content: [...last.content, ...stripped.content] } as Message;
      normalized[normalized.length - 1] = joined;
      merged.add(joined);
    } else normalized.push(stripped);
  }
  return normalized.map((message) =>
    message.role === 'assistant' && merged.has(message) ? reasoningFirst(message) : message,
  );
}

function reasoningFirst(message: Message): Message {
  const parts = message.content;
  if (parts[0]?.type === 'reasoning' || !parts.some((part) => part.type === 'reasoning')) return message;
  return {
    role: message.role,
    content: [
      ...parts.filter((part) => part.type === 'reasoning'),
      ...parts.filter((part) => part.type !== 'reasoning'),
    ],
  } as Message;
}
