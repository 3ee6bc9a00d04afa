import type { Message } from '../messages/message.js';

/**
 * Whether `next`, placed right after `previous`, would be merged behind it into one model turn ahead of its
 * reasoning: both are assistant messages and `next` carries reasoning. Providers merge consecutive assistant
 * messages (Anthropic into one turn, and the AI SDK likewise), and a turn with thinking must start with it,
 * so a request with such a pair is refused when the pair was not already together in the original history.
 */
export function mergesAheadOfReasoning(previous: Message | undefined, next: Message | undefined): boolean {
  return (
    previous?.role === 'assistant' &&
    next?.role === 'assistant' &&
    next.content.some((part) => part.type === 'reasoning')
  );
}
