import type Anthropic from '@anthropic-ai/sdk';
import { type CompactionEvent, type ContextOverflowError, EventEmitter } from '@compaction/core';

/**
 * Events an {@link AnthropicConversation} emits, by name. `step` numbers the model calls of the
 * conversation (1 for the first `send`); a retry after an overflow keeps its step and has `attempt: 2`.
 */
export interface AnthropicConversationEvents {
  /** The history was compacted: proactively before a request (`auto`), after an overflow, or by `compact()`. */
  compaction: { step: number; event: CompactionEvent };
  /** A request is about to be sent, with its body as the SDK receives it. */
  request: { step: number; attempt: number; body: Anthropic.MessageCreateParamsNonStreaming };
  /** The API refused a request as too long; the conversation compacts and retries once. */
  overflow: { step: number; error: ContextOverflowError };
  /** The API answered; the answer is already in the history. */
  response: { step: number; response: Anthropic.Message; inputTokens: number };
}

/** The conversation's emitter: core's typed emitter over these events. */
export class AnthropicConversationEmitter extends EventEmitter<AnthropicConversationEvents> {}
