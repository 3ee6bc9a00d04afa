import type { Message } from '@compaction/core';

/**
 * The conversation as the agent sent it, ready for one more user message: whole, but for a last assistant
 * message whose tool calls still wait for results, which ends it right before that message (and the results
 * that came so far). Both APIs refuse a user message after a call that has no result, and a prefix of what
 * the agent sent is still what the provider's prompt cache holds.
 */
export function conversationPrefix(messages: readonly Message[]): readonly Message[] {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === 'tool') continue;
    if (message.role !== 'assistant') return messages;
    const calls = message.content.flatMap((part) => (part.type === 'tool-call' ? [part.toolCallId] : []));
    const answered = new Set(
      messages
        .slice(index + 1)
        .flatMap((later) => (later.role === 'tool' ? later.content.map((part) => part.toolCallId) : [])),
    );
    return calls.every((id) => answered.has(id)) ? messages : messages.slice(0, index);
  }
  return messages;
}
