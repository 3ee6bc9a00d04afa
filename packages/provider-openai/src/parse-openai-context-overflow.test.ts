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

  it('reads the "you requested" variants, whose total counts the completion', () => {
    const message =
      "This model's maximum context length is 8192 tokens. However, you requested 8500 tokens (7000 in the messages, 1500 in the completion).";
    expect(parseOpenAIContextOverflow({ error: { code: 'context_length_exceeded', message } })).toEqual({
      message,
      requestTokens: 8500,
      maximumTokens: 8192,
      outputTokens: 1500,
    });
    const prompt =
      "This model's maximum context length is 4097 tokens, however you requested 4322 tokens (4066 in your prompt; 256 for the completion). Please reduce your prompt; or completion length.";
    expect(
      parseOpenAIContextOverflow({ error: { code: 'context_length_exceeded', message: prompt } }),
    ).toEqual({ message: prompt, requestTokens: 4322, maximumTokens: 4097, outputTokens: 256 });
  });

  it('reads the variant with the functions counted in the input', () => {
    const message =
      "This model's maximum context length is 16385 tokens. However, your messages resulted in 23273 tokens (22394 in the messages, 879 in the functions). Please reduce the length of the messages or functions.";
    expect(
      parseOpenAIContextOverflow({
        error: { message, type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' },
      }),
    ).toEqual({ message, requestTokens: 23273, maximumTokens: 16385 });
  });

  it('recognises the error event of a Responses stream', () => {
    const message =
      'Your input exceeds the context window of this model. Please adjust your input and try again.';
    const event = {
      type: 'error',
      sequence_number: 2,
      error: { type: 'invalid_request_error', code: 'context_length_exceeded', message, param: 'input' },
    };
    expect(parseOpenAIContextOverflow(event)).toEqual({ message });
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
