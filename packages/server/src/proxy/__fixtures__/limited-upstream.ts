import type Anthropic from '@anthropic-ai/sdk';
import type { RecordedRequest, Reply, TestServer } from '@compaction/testing/loopback-server';
import { answerWithToolCalls } from './coding-agent.js';

/**
 * The upstream's own count of a request: its bytes over 3.5, tool definitions and all. A provider's tokenizer
 * is not the proxy's estimator, and it counts the whole request.
 */
export const upstreamCount = (request: RecordedRequest): number =>
  Math.ceil(Buffer.byteLength(request.rawBody) / 3.5);

/** The forms of Anthropic's "too long" refusal. */
export type AnthropicRefusal = 'prompt-too-long' | 'input-and-max-tokens';

/** Anthropic's refusal of a request of `count` tokens, in the words the API uses. */
export function anthropicRefusal(
  form: AnthropicRefusal,
  count: number,
  limit: number,
  maxTokens: number,
): Reply {
  const message =
    form === 'prompt-too-long'
      ? `prompt is too long: ${count} tokens > ${limit} maximum`
      : `input length and \`max_tokens\` exceed context limit: ${count} + ${maxTokens} > ${limit}, ` +
        'decrease input length or `max_tokens` and try again';
  return { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message } } };
}

/**
 * An Anthropic Messages upstream whose real limit is `limit` tokens of its own count: it refuses a longer
 * request as the API does (`form`), and answers the others with a tool call reading the next file.
 */
export function anthropicWithLimit(
  upstream: TestServer,
  limit: number,
  form: AnthropicRefusal = 'prompt-too-long',
): (request: RecordedRequest) => Reply {
  const answer = answerWithToolCalls(upstream);
  return (request) => {
    const count = upstreamCount(request);
    const maxTokens = (request.body as { max_tokens: number }).max_tokens;
    const over = form === 'prompt-too-long' ? count > limit : count + maxTokens > limit;
    return over ? anthropicRefusal(form, count, limit, maxTokens) : answer(request);
  };
}

/** Tool definitions of about `tokens` tokens, as coding agents send (Claude Code's are about 12k). */
export function largeTools(tokens: number): Anthropic.Tool[] {
  const sentence = 'Reads, edits or searches files of the repository and reports what it found. ';
  // About 15 tokens per sentence, 20 sentences per tool.
  const count = Math.ceil(tokens / 300);
  return Array.from({ length: count }, (_, index) => ({
    name: `tool_${index}`,
    description: `Tool ${index}. ${sentence.repeat(20)}`,
    input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  }));
}
