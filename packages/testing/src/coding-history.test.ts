import { createMessageEstimator, createTokenCounter, repairHistory } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { generateCodingHistory } from './coding-history.js';

describe('generateCodingHistory', () => {
  it('makes a valid 2,000-message history of about a million tokens, the same for the same seed', () => {
    const history = generateCodingHistory();
    expect(history).toHaveLength(2000);
    expect(repairHistory(history).repairs).toEqual([]);
    const tokens = createTokenCounter(
      createMessageEstimator({ name: 'approximate:4', countText: (text) => Math.ceil(text.length / 4) }),
    ).estimate(history);
    expect(tokens).toBeGreaterThan(800_000);
    expect(tokens).toBeLessThan(1_300_000);
    expect(generateCodingHistory({ messages: 50, seed: 3 })).toEqual(
      generateCodingHistory({ messages: 50, seed: 3 }),
    );
    expect(generateCodingHistory({ messages: 50, seed: 3 })).not.toEqual(
      generateCodingHistory({ messages: 50, seed: 4 }),
    );
  });
});
