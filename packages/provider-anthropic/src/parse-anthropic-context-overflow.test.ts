import { ContextOverflowError, ProviderError } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { parseAnthropicContextOverflow } from './parse-anthropic-context-overflow.js';

const body = (message: string, type = 'invalid_request_error') => ({
  type: 'error',
  error: { type, message },
});

describe('parseAnthropicContextOverflow', () => {
  it('reads "prompt is too long" from an SDK error, its body or the inner error', () => {
    const message = 'prompt is too long: 208310 tokens > 200000 maximum';
    const expected = { message, requestTokens: 208310, maximumTokens: 200000 };
    expect(
      parseAnthropicContextOverflow({ status: 400, error: body(message), message: `400 ${message}` }),
    ).toEqual(expected);
    expect(parseAnthropicContextOverflow(body(message))).toEqual(expected);
    expect(parseAnthropicContextOverflow(body(message).error)).toEqual(expected);
  });

  it('reads the input-plus-output variant as input plus requested output', () => {
    const message =
      'input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, decrease input length or `max_tokens` and try again';
    expect(parseAnthropicContextOverflow({ status: 400, error: body(message) })).toEqual({
      message,
      requestTokens: 209573,
      maximumTokens: 200000,
      outputTokens: 21333,
    });
  });

  it('recognises an overflow without numbers', () => {
    expect(parseAnthropicContextOverflow(body('prompt is too long'))).toEqual({
      message: 'prompt is too long',
    });
  });

  it('passes through its own ContextOverflowError', () => {
    const error = new ContextOverflowError({ provider: 'anthropic', requestTokens: 5, maximumTokens: 4 });
    expect(parseAnthropicContextOverflow(error)).toMatchObject({ requestTokens: 5, maximumTokens: 4 });
  });

  it('ignores other errors', () => {
    expect(parseAnthropicContextOverflow(new Error('network down'))).toBeUndefined();
    expect(
      parseAnthropicContextOverflow({
        status: 429,
        error: body('prompt is too long: 5 tokens > 4 maximum', 'rate_limit_error'),
      }),
    ).toBeUndefined();
    expect(
      parseAnthropicContextOverflow({
        status: 400,
        error: body('max_tokens: 10000 > 4096, which is the maximum'),
      }),
    ).toBeUndefined();
    expect(
      parseAnthropicContextOverflow(new ProviderError({ provider: 'anthropic', message: 'x' })),
    ).toBeUndefined();
    expect(parseAnthropicContextOverflow(undefined)).toBeUndefined();
    expect(parseAnthropicContextOverflow('prompt is too long')).toBeUndefined();
  });
});
