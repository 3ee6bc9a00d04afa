import { describe, expect, it } from 'vitest';
import { needsSummarizerProvider } from './summarizer-needed.js';

describe('needsSummarizerProvider', () => {
  it('is true for summarization by name or with a summarizer output, alone or in a pipeline', () => {
    expect(needsSummarizerProvider('summarization')).toBe(true);
    expect(needsSummarizerProvider(['tool-result-truncation', 'summarization'])).toBe(true);
    expect(needsSummarizerProvider([{ name: 'summarization', options: { maxOutputTokens: 500 } }])).toBe(
      true,
    );
    expect(needsSummarizerProvider([{ name: 'summarization' }])).toBe(true);
  });

  it('is false for summarization with maxOutputTokens 0, which writes the artifact trail alone', () => {
    expect(
      needsSummarizerProvider([
        'tool-result-truncation',
        { name: 'summarization', options: { maxOutputTokens: 0, placement: 'assistant-after-task' } },
      ]),
    ).toBe(false);
    expect(needsSummarizerProvider(['tool-result-truncation', 'sliding-window'])).toBe(false);
  });

  it('finds summarization nested in the options of another strategy', () => {
    expect(needsSummarizerProvider([{ name: 'native', options: { fallback: 'summarization' } }])).toBe(true);
    expect(
      needsSummarizerProvider([
        {
          name: 'native',
          options: { fallback: [{ name: 'summarization', options: { maxOutputTokens: 0 } }] },
        },
      ]),
    ).toBe(false);
  });
});
