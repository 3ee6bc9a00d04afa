import type Anthropic from '@anthropic-ai/sdk';
import type { ConversationLoopEvents } from '@compaction/agent-loop';

/**
 * Events an {@link AnthropicConversation} emits, by name. `step` numbers the model calls of the
 * conversation (1 for the first `send`); a retry after an overflow keeps its step and has `attempt: 2`.
 * The Messages API always reports usage, so `response.inputTokens` is always a number.
 */
export type AnthropicConversationEvents = ConversationLoopEvents<
  Anthropic.MessageCreateParamsNonStreaming,
  Anthropic.Message,
  number
>;
