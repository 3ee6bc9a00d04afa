import type { Message, Part } from '@compaction/core';

/**
 * What a core conversation looks like after a trip through an OpenAI shape: ids and core-only metadata are
 * gone, reasoning without an OpenAI origin is dropped (neither API takes it back), tool results lose
 * `isError` (no such flag), and tool messages are one per result (Chat Completions) or consecutive ones
 * merged and consecutive assistant messages merged (Responses, whose items are flat).
 */
export function normalizeForOpenAI(messages: Message[], api: 'chat' | 'responses'): Message[] {
  const normalized: Message[] = [];
  for (const message of messages) {
    const content = message.content
      .filter((part: Part) => part.type !== 'reasoning')
      .map((part) => {
        if (part.type !== 'tool-result' || part.isError === undefined) return part;
        const { isError: _dropped, ...rest } = part;
        return rest;
      });
    if (message.role === 'assistant' && content.length === 0 && message.content.length > 0) continue;
    const stripped = { role: message.role, content } as Message;
    const last = normalized.at(-1);
    if (api === 'chat' && stripped.role === 'tool') {
      for (const part of stripped.content) normalized.push({ role: 'tool', content: [part] } as Message);
    } else if (
      api === 'responses' &&
      last !== undefined &&
      last.role === stripped.role &&
      (stripped.role === 'tool' || stripped.role === 'assistant')
    ) {
      normalized[normalized.length - 1] = {
        role: last.role,
        content: [...last.content, ...stripped.content],
      } as Message;
    } else normalized.push(stripped);
  }
  return normalized;
}
