import { ContextOverflowError as CoreOverflowError } from '@compaction/core';
import { ContextOverflowError } from '@langchain/core/errors';
import { describe, expect, it } from 'vitest';
import { parseContextOverflow } from './parse-context-overflow.js';

/** An error as LangChain's chat models raise it: their own overflow error, the SDK's error as its cause. */
function langChainOverflow(message: string): Error {
  const sdkError = Object.assign(new Error(`400 ${message}`), { status: 400 });
  return ContextOverflowError.fromError(sdkError);
}

describe('parseContextOverflow', () => {
  it("reads Anthropic's and OpenAI's figures from LangChain's overflow error", () => {
    expect(
      parseContextOverflow(langChainOverflow('prompt is too long: 210,000 tokens > 200,000 maximum')),
    ).toMatchObject({ requestTokens: 210_000, maximumTokens: 200_000 });
    const openAI =
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens.";
    expect(parseContextOverflow(langChainOverflow(openAI))).toMatchObject({
      requestTokens: 130_532,
      maximumTokens: 128_000,
    });
  });

  it('follows causes (a middleware wraps the model’s error) and knows the core’s own overflow error', () => {
    const wrapped = new Error('middleware failed', { cause: langChainOverflow('Input is too long.') });
    expect(parseContextOverflow(wrapped)).toMatchObject({ message: expect.stringContaining('too long') });
    const own = new CoreOverflowError({ provider: 'x', message: 'over', requestTokens: 9, maximumTokens: 8 });
    expect(parseContextOverflow(own)).toEqual({ message: 'over', requestTokens: 9, maximumTokens: 8 });
  });

  it('is undefined for any other error', () => {
    expect(parseContextOverflow(new Error('rate limited'))).toBeUndefined();
    expect(parseContextOverflow('prompt is too long')).toBeUndefined();
  });
});
