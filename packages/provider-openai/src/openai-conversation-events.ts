import type { ConversationLoopEvents } from '@compaction/agent-loop';

/**
 * Events an OpenAI conversation emits, by name, for a request body type and a response type. `step` numbers
 * the model calls of the conversation (1 for the first `send`); a retry after an overflow keeps its step and
 * has `attempt: 2`. `response.inputTokens` is undefined when the API reported no usage.
 */
export type OpenAIConversationEvents<Body, Response> = ConversationLoopEvents<Body, Response>;
