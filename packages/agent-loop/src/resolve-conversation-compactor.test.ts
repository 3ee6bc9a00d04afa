import { createCompactor, createMessageEstimator, InvalidOptionsError } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { keepEnds } from './__fixtures__/keep-ends.js';
import { resolveConversationCompactor } from './resolve-conversation-compactor.js';

const strategy = keepEnds();

describe('resolveConversationCompactor', () => {
  it('returns the compactor given', () => {
    const compactor = createCompactor({ strategy, budget: { contextWindow: 1000 } });
    expect(resolveConversationCompactor({ subject: 'Test conversation', compactor, contextWindow: 5 })).toBe(
      compactor,
    );
  });

  it('requires exactly one of compactor and compaction', () => {
    const compactor = createCompactor({ strategy, budget: { contextWindow: 1000 } });
    for (const settings of [{}, { compactor, compaction: { strategy } }]) {
      expect(() =>
        resolveConversationCompactor({ subject: 'Test conversation', contextWindow: 1000, ...settings }),
      ).toThrow(InvalidOptionsError);
    }
  });

  it('defaults the budget to the model window and the output limit; the settings win', () => {
    const created = resolveConversationCompactor({
      subject: 'Test conversation',
      compaction: { strategy },
      contextWindow: 100_000,
      reservedOutputTokens: 4000,
    });
    expect(created.budget).toMatchObject({ contextWindow: 100_000, reservedOutputTokens: 4000 });
    const overridden = resolveConversationCompactor({
      subject: 'Test conversation',
      compaction: { strategy, budget: { contextWindow: 50_000, reservedOutputTokens: 1000 } },
      contextWindow: 100_000,
      reservedOutputTokens: 4000,
    });
    expect(overridden.budget).toMatchObject({ contextWindow: 50_000, reservedOutputTokens: 1000 });
  });

  it('uses the default estimator only when the settings give neither counter nor estimator', () => {
    const tuned = createMessageEstimator({
      name: 'approximate:1',
      countText: (text) => Math.ceil(text.length / 1),
    });
    let calls = 0;
    const defaultEstimator = () => {
      calls++;
      return tuned;
    };
    const text = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'x'.repeat(400) }] }];
    const withDefault = resolveConversationCompactor({
      subject: 'Test conversation',
      compaction: { strategy },
      contextWindow: 100_000,
      defaultEstimator,
    });
    expect(withDefault.counter.count(text)).toBe(tuned.countMessage(text[0]!));
    const own = createMessageEstimator({
      name: 'approximate:8',
      countText: (text) => Math.ceil(text.length / 8),
    });
    const withOwn = resolveConversationCompactor({
      subject: 'Test conversation',
      compaction: { strategy, estimator: own },
      contextWindow: 100_000,
      defaultEstimator,
    });
    expect(withOwn.counter.count(text)).toBe(own.countMessage(text[0]!));
    expect(calls).toBe(1);
  });
});
