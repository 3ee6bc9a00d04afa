import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import { parseContextOverflow } from './parse-context-overflow.js';

function apiCallError(message: string, responseBody: string, statusCode = 400) {
  return new APICallError({
    message,
    url: 'http://127.0.0.1/v1/chat/completions',
    requestBodyValues: {},
    statusCode,
    responseBody,
  });
}

describe('parseContextOverflow', () => {
  it('reads OpenAI context_length_exceeded with its numbers', () => {
    const body = JSON.stringify({ error: { code: 'context_length_exceeded', message: 'x' } });
    const error = apiCallError(
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130,512 tokens.",
      body,
    );
    expect(parseContextOverflow(error)).toEqual({
      message: error.message,
      requestTokens: 130_512,
      maximumTokens: 128_000,
    });
  });

  it("reads Anthropic's prompt is too long", () => {
    const error = apiCallError('prompt is too long: 210000 tokens > 200000 maximum', '{}');
    expect(parseContextOverflow(error)).toMatchObject({ requestTokens: 210_000, maximumTokens: 200_000 });
  });

  it('recognises an overflow named only in the response body, or in a cause', () => {
    const inBody = apiCallError('Bad Request', '{"error":{"code":"context_length_exceeded"}}');
    expect(parseContextOverflow(inBody)).toEqual({ message: 'Bad Request' });
    expect(parseContextOverflow(new Error('step failed', { cause: inBody }))).toEqual({
      message: 'Bad Request',
    });
  });

  it('ignores every other error', () => {
    expect(parseContextOverflow(apiCallError('Invalid tool schema', '{}'))).toBeUndefined();
    expect(
      parseContextOverflow(apiCallError('Rate limit reached for tokens per min', '{}', 429)),
    ).toBeUndefined();
    expect(parseContextOverflow('context window')).toBeUndefined();
    expect(parseContextOverflow(undefined)).toBeUndefined();
  });
});
