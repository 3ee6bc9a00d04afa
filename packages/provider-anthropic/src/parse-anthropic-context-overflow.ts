import type { ContextOverflow } from '@compaction/core';
import { contextOverflowOfError } from '@compaction/provider-utils';

const promptTooLong = /prompt is too long:\s*(\d+)\s*tokens?\s*>\s*(\d+)\s*maximum/i;
const inputAndOutputTooLong =
  /input length and `?max_tokens`? exceed context limit:\s*(\d+)\s*\+\s*(\d+)\s*>\s*(\d+)/i;

/**
 * Recognises Anthropic's "too long" refusals and extracts the numbers:
 *
 * - 400 `invalid_request_error` "prompt is too long: 208310 tokens > 200000 maximum";
 * - 400 `invalid_request_error` "input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000"
 *   (the input fits, but not with the requested output; `requestTokens` is then input plus output, and
 *   `outputTokens` the output);
 * - a `ContextOverflowError` thrown by this adapter.
 *
 * Accepts SDK errors (`APIError` with `status` and the JSON body in `error`), the JSON body itself, or its
 * inner `error` object. Returns `undefined` for anything else.
 */
export function parseAnthropicContextOverflow(error: unknown): ContextOverflow | undefined {
  const own = contextOverflowOfError(error);
  if (own !== undefined) return own;
  const details = errorDetails(error);
  if (details === undefined) return undefined;
  if (details.status !== undefined && details.status !== 400 && details.status !== 413) return undefined;
  if (
    details.type !== undefined &&
    details.type !== 'invalid_request_error' &&
    details.type !== 'request_too_large'
  ) {
    return undefined;
  }
  const prompt = promptTooLong.exec(details.message);
  if (prompt !== null) {
    return { message: details.message, requestTokens: Number(prompt[1]), maximumTokens: Number(prompt[2]) };
  }
  const combined = inputAndOutputTooLong.exec(details.message);
  if (combined !== null) {
    return {
      message: details.message,
      requestTokens: Number(combined[1]) + Number(combined[2]),
      maximumTokens: Number(combined[3]),
      outputTokens: Number(combined[2]),
    };
  }
  if (
    /prompt is too long|context (window|limit) exceeded|exceeds? the context window/i.test(details.message)
  ) {
    return { message: details.message };
  }
  return undefined;
}

interface ErrorDetails {
  status: number | undefined;
  type: string | undefined;
  message: string;
}

function errorDetails(error: unknown): ErrorDetails | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const record = error as Record<string, unknown>;
  const status = typeof record.status === 'number' ? record.status : undefined;
  // SDK APIError: the response body is in `error`, shaped { type: 'error', error: { type, message } }.
  for (const candidate of [record.error, record]) {
    const inner = innerError(candidate);
    if (inner !== undefined) return { status, ...inner };
  }
  if (typeof record.message === 'string') return { status, type: undefined, message: record.message };
  return undefined;
}

function innerError(value: unknown): { type: string | undefined; message: string } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const nested = record.error;
  if (typeof nested === 'object' && nested !== null) {
    const inner = nested as Record<string, unknown>;
    if (typeof inner.message === 'string') {
      return { type: typeof inner.type === 'string' ? inner.type : undefined, message: inner.message };
    }
  }
  if (record.type !== 'error' && typeof record.type === 'string' && typeof record.message === 'string') {
    return { type: record.type, message: record.message };
  }
  return undefined;
}
