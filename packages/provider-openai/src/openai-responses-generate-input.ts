import type { Message } from '@compaction/core';
import type { OpenAIResponsesInputParam } from './openai-responses-request.js';
import { type ToOpenAIResponsesInputOptions, toOpenAIResponsesInput } from './to-openai-responses-input.js';

/**
 * The Responses input `generate` sends for a conversation: every item as the agent sent it (so the cached
 * prefix matches), except `compaction_trigger`. A trigger asks the API to compact rather than answer, and is
 * accepted only as the final item; `generate` asks for text, after the trigger when the conversation was
 * captured with one.
 */
export function toOpenAIResponsesGenerateInput(
  messages: Message[],
  options: ToOpenAIResponsesInputOptions,
): OpenAIResponsesInputParam {
  const input = toOpenAIResponsesInput(messages, options);
  if (typeof input === 'string') return input;
  return input.filter((item) => (item as { type?: unknown }).type !== 'compaction_trigger');
}
