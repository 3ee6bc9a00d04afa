import { createFastEstimator } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecentBodies } from './recent-bodies.js';

// A request is counted from what it adds to the one before it: the estimate of a grown body stays close to a
// count of it whole, and a body that shares too little with every recent one is not estimated at all.

const estimator = createFastEstimator();
const countWhole = (raw: Buffer) => estimator.countText(raw.toString('utf8'));

const request = (turns: readonly string[]) =>
  Buffer.from(
    JSON.stringify({
      model: 'claude-sonnet-5-5',
      max_tokens: 1024,
      messages: turns.map((text, index) => ({ role: index % 2 === 0 ? 'user' : 'assistant', content: text })),
    }),
  );

const turnText = fc.string({ unit: 'grapheme', minLength: 20, maxLength: 400 });

describe('RecentBodies', () => {
  it('estimates a body grown by a few turns within a few percent of counting it whole', () => {
    fc.assert(
      fc.property(
        fc.array(turnText, { minLength: 30, maxLength: 40 }),
        fc.array(turnText, { minLength: 1, maxLength: 3 }),
        (opening, added) => {
          const bodies = new RecentBodies(estimator);
          const first = request(opening);
          bodies.remember('anthropic', first, countWhole(first), { counted: countWhole(first) });
          const grown = request([...opening, ...added]);
          const estimate = bodies.estimate('anthropic', grown);
          if (grown.length - first.length > grown.length * 0.2) return;
          expect(estimate).toBeDefined();
          const whole = countWhole(grown);
          expect(Math.abs(estimate!.tokens - whole)).toBeLessThanOrEqual(whole * 0.03 + 4);
        },
      ),
    );
  });

  it('estimates nothing from a body of another format, or one that shares too little', () => {
    const bodies = new RecentBodies(estimator);
    const first = request(Array.from({ length: 10 }, (_, turn) => `turn ${turn} ${'text '.repeat(50)}`));
    bodies.remember('anthropic', first, countWhole(first), { counted: countWhole(first) });
    expect(bodies.estimate('openai-chat', first)).toBeUndefined();
    expect(bodies.estimate('anthropic', request(['another conversation altogether']))).toBeUndefined();
    expect(bodies.estimate('anthropic', first)?.tokens).toBe(countWhole(first));
  });
});
