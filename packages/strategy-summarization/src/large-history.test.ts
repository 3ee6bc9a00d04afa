import { createTokenCounter, verifyCompaction } from '@compaction/core';
import { isSummary } from '@compaction/strategy-kit';
import { generateCodingHistory } from '@compaction/testing';
import { describe, expect, it } from 'vitest';
import { summarizingProvider } from './__fixtures__/summaries.js';
import { createSummarization } from './create-summarization.js';

describe('a history of about a million tokens', () => {
  it('is summarized in requests that each fit a 32K summarizer window', { timeout: 60_000 }, async () => {
    const messages = generateCodingHistory({ messages: 2000 });
    const counter = createTokenCounter();
    const total = counter.estimate(messages);
    expect(total).toBeGreaterThan(800_000);
    const window = 32_000;
    const provider = summarizingProvider({ limits: { contextWindow: window, maxOutputTokens: 4096 } });
    const target = Math.floor(total * 0.1);
    const output = await createSummarization({ provider }).compact({
      messages,
      counter,
      budget: { limit: target, target },
      trigger: 'auto',
      round: 1,
    });
    expect(verifyCompaction({ before: messages, after: output.messages, counter, limit: target })).toEqual(
      [],
    );
    expect(output.messages.filter(isSummary)).toHaveLength(1);
    expect(output.details).not.toHaveProperty('fallback');
    expect(provider.requests.length).toBeGreaterThan(1);
    const requestCounter = createTokenCounter();
    for (const request of provider.requests) {
      expect(request.maxOutputTokens).toBeLessThanOrEqual(4096);
      expect(requestCounter.estimate(request.messages) + request.maxOutputTokens!).toBeLessThanOrEqual(
        window,
      );
    }
  });
});
