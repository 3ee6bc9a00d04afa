import { ContextOverflowError } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { parseOpenAIContextOverflow } from './parse-openai-context-overflow.js';

describe('parseOpenAIContextOverflow', () => {
  it('reads both numbers from the Chat Completions message', () => {
    const message =
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens. Please reduce the length of the messages.";
    const inner = {
      message,
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    };
    const expected = { message, requestTokens: 130532, maximumTokens: 128000 };
    expect(
      parseOpenAIContextOverflow({
        status: 400,
        code: 'context_length_exceeded',
        error: inner,
        message: `400 ${message}`,
      }),
    ).toEqual(expected);
    expect(parseOpenAIContextOverflow({ error: inner })).toEqual(expected);
  });

  it('reads the "you requested" variant', () => {
    const message =
      "This model's maximum context length is 8192 tokens. However, you requested 8500 tokens (7000 in the messages, 1500 in the completion).";
    expect(parseOpenAIContextOverflow({ error: { code: 'context_length_exceeded', message } })).toEqual({
      message,
      requestTokens: 8500,
      maximumTokens: 8192,
    });
  });

  it('recognises the Responses API overflow, which has no numbers', () => {
    const message =
      'Your input exceeds the context window of this model. Please adjust your input and try again.';
    expect(
      parseOpenAIContextOverflow({ status: 'failed', error: { code: 'context_length_exceeded', message } }),
    ).toEqual({ message });
  });

  it('passes through a ContextOverflowError and ignores anything else', () => {
    expect(
      parseOpenAIContextOverflow(new ContextOverflowError({ provider: 'openai', maximumTokens: 9 })),
    ).toMatchObject({
      maximumTokens: 9,
    });
    expect(
      parseOpenAIContextOverflow({ status: 400, error: { code: 'invalid_value', message: 'bad' } }),
    ).toBeUndefined();
    expect(parseOpenAIContextOverflow(new Error('maximum context length is 5 tokens'))).toBeUndefined();
    expect(parseOpenAIContextOverflow(null)).toBeUndefined();
  });
});
