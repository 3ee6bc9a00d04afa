import { type Message, ProviderError, type TokenCount } from '@compaction/core';
import type { OpenAIRequestOptions } from './openai-client.js';
import { toOpenAICompactionError } from './openai-error.js';
import { toOpenAIResponsesInput } from './to-openai-responses-input.js';

/** The part of the `openai` client (6.x) that counts input tokens: `responses.inputTokens.count`. */
export interface OpenAIInputTokensClient {
  responses?: { inputTokens?: { count(body: never, options?: never): PromiseLike<unknown> } };
}

/** What {@link countOpenAIInputTokens} sends. */
export interface OpenAIInputTokenCountRequest {
  model: string;
  messages: Message[];
  /** Role of system messages: `system` (default) or `developer`. */
  systemRole?: 'system' | 'developer';
}

const source = 'openai:responses.input_tokens';

/**
 * Counts the input tokens of messages exactly, with OpenAI's input token count endpoint
 * (`POST /v1/responses/input_tokens`): the messages are sent as a Responses API input, images and files
 * included, and the count is what the model would be billed for them.
 *
 * @throws {ProviderError} when the client has no `responses.inputTokens` (an `openai` SDK older than 6), or
 * the API fails.
 */
export async function countOpenAIInputTokens(
  client: OpenAIInputTokensClient,
  request: OpenAIInputTokenCountRequest,
): Promise<TokenCount> {
  if (request.messages.length === 0) return { tokens: 0, accuracy: 'exact', source };
  const inputTokens = client.responses?.inputTokens;
  if (inputTokens === undefined) {
    throw new ProviderError({
      provider: 'openai',
      message: 'the client has no responses.inputTokens.count: counting with the API needs openai 6 or later',
    });
  }
  const systemRole = request.systemRole === undefined ? {} : { systemRole: request.systemRole };
  const body = { model: request.model, input: toOpenAIResponsesInput(request.messages, systemRole) };
  const count = inputTokens.count as unknown as (
    body: object,
    options: OpenAIRequestOptions,
  ) => PromiseLike<{ input_tokens: number }>;
  try {
    const counted = await count.call(inputTokens, body, {});
    return { tokens: counted.input_tokens, accuracy: 'exact', source };
  } catch (error) {
    throw toOpenAICompactionError(error);
  }
}
