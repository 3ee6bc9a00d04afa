import type { ContextOverflow } from '@compaction/core';
import { contextOverflowOfError } from '@compaction/provider-utils';

const maximumPattern = /maximum context length is\s*(\d+)\s*tokens/i;
/** The output a "you requested" message counted in the request ("8192 in the completion", "256 for the completion"). */
const outputPattern = /(\d+)\s*(?:in|for) the completion/i;
const requestPatterns = [
  /resulted in\s*(\d+)\s*tokens/i,
  /you requested\s*(\d+)\s*tokens/i,
  /requested\s*(\d+)\s*tokens/i,
];

/**
 * Recognises OpenAI's "too long" refusals: error code `context_length_exceeded` on Chat Completions (400,
 * "This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens",
 * with "(130000 in the messages, 532 in the functions)" when tools took part, or "you requested 4322 tokens
 * (4066 in your prompt; 256 for the completion)", whose completion is the `outputTokens` counted in it)
 * and on the Responses API (a 400, or a failed response whose `error.code` says so; its message, "Your input
 * exceeds the context window of this model", has no numbers). Numbers are extracted when the message has
 * them. Accepts SDK errors (`APIError` with `code` and `error`), response bodies, failed responses and a
 * `ContextOverflowError`; returns `undefined` for anything else.
 */
export function parseOpenAIContextOverflow(error: unknown): ContextOverflow | undefined {
  const own = contextOverflowOfError(error);
  if (own !== undefined) return own;
  const found = findOverflow(error, 0);
  if (found === undefined) return undefined;
  const maximum = maximumPattern.exec(found);
  const request = requestPatterns.map((pattern) => pattern.exec(found)).find((match) => match !== null);
  const output = request == null ? null : outputPattern.exec(found);
  return {
    message: found,
    ...(request == null ? {} : { requestTokens: Number(request[1]) }),
    ...(maximum === null ? {} : { maximumTokens: Number(maximum[1]) }),
    ...(output === null ? {} : { outputTokens: Number(output[1]) }),
  };
}

/** The message of a `context_length_exceeded` error anywhere in the usual nesting (`error.error...`). */
function findOverflow(value: unknown, depth: number): string | undefined {
  if (typeof value !== 'object' || value === null || depth > 3) return undefined;
  const record = value as Record<string, unknown>;
  if (record.code === 'context_length_exceeded') {
    const nested = record.error as Record<string, unknown> | undefined;
    const message =
      typeof nested?.message === 'string'
        ? nested.message
        : typeof record.message === 'string'
          ? record.message
          : 'context_length_exceeded';
    return message;
  }
  return findOverflow(record.error, depth + 1);
}
