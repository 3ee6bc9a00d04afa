import { describe, expect, it } from 'vitest';
import { overflowFiguresOfText } from './overflow-figures-of-text.js';

describe('overflowFiguresOfText', () => {
  it("reads OpenAI's figures, request after maximum, with thousands separators", () => {
    expect(
      overflowFiguresOfText(
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130,512 tokens.",
      ),
    ).toEqual({ requestTokens: 130_512, maximumTokens: 128_000 });
    expect(
      overflowFiguresOfText(
        'maximum context length is 4097 tokens.\nHowever, you requested 4322 tokens (4066 in your prompt)',
      ),
    ).toEqual({ requestTokens: 4322, maximumTokens: 4097 });
  });

  it("reads Anthropic's figures, request first", () => {
    expect(overflowFiguresOfText('prompt is too long: 210,000 tokens > 200,000 maximum')).toEqual({
      requestTokens: 210_000,
      maximumTokens: 200_000,
    });
    expect(overflowFiguresOfText('400 prompt is too long: 1 token > 0 maximum')).toEqual({
      requestTokens: 1,
      maximumTokens: 0,
    });
  });

  it('is undefined for a text stating no figures', () => {
    expect(overflowFiguresOfText('prompt is too long')).toBeUndefined();
    expect(overflowFiguresOfText('Your input exceeds the context window of this model')).toBeUndefined();
    expect(overflowFiguresOfText('')).toBeUndefined();
  });
});
