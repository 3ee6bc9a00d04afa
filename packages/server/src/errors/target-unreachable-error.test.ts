import { BudgetUnreachableError, CompactionError } from '@compaction/core';
import { expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { TargetUnreachableError } from './target-unreachable-error.js';

const budget = { target: 500, targetGiven: true, limit: 1000, contextWindow: 2000 };

// Not on the Node 22 compatibility run: the error and its message are plain code, with no module of the runtime
// (the Node 20 run has run it).
describeOnFullRun('TargetUnreachableError', () => {
  it("is core's budget-unreachable error, with the numbers of the innermost strategy's error", () => {
    const strategyError = new BudgetUnreachableError({
      target: 500,
      best: 1500,
      limit: 1000,
      reason: 'the pinned messages alone are over it',
    });
    const error = new TargetUnreachableError({
      budget,
      cause: new BudgetUnreachableError({ target: 500, best: 3000, limit: 1000, cause: strategyError }),
    });
    expect(TargetUnreachableError.isInstance(error)).toBe(true);
    expect(BudgetUnreachableError.isInstance(error)).toBe(true);
    expect(CompactionError.isInstance(error)).toBe(true);
    expect(TargetUnreachableError.isInstance(strategyError)).toBe(false);
    expect(error).toMatchObject({
      name: 'TargetUnreachableError',
      code: 'core/budget-unreachable',
      target: 500,
      limit: 1000,
      contextWindow: 2000,
      reason: 'the pinned messages alone are over it',
    });
    expect(error.message).toBe(
      'cannot reach the target of 500 tokens: the best is 3,000, over the limit of 1,000 tokens ' +
        '(a 2,000-token context window less reserved output and margin); the pinned messages alone are over it',
    );
    expect(error.stack?.split('\n')[0]).toBe(`TargetUnreachableError: ${error.message}`);
  });

  it('speaks of the limit when the target was the default, and of no progress within the limit', () => {
    const over = new TargetUnreachableError({
      budget: { ...budget, targetGiven: false },
      cause: new BudgetUnreachableError({ target: 500, best: 1200, limit: 1000 }),
    });
    expect(over.message).toMatch(/^cannot fit the limit of 1,000 tokens \(.*\): the best is 1,200$/);
    const within = new TargetUnreachableError({
      budget: { ...budget, targetGiven: false },
      cause: new BudgetUnreachableError({ target: 500, best: 800, limit: 1000 }),
    });
    expect(within.message).toBe('cannot reach the default target of 500 tokens: the best is 800');
    expect(within.best).toBe(800);
  });

  it('says no strategy got under the limit when the error it wraps gives no result', () => {
    const error = new TargetUnreachableError({ budget, cause: new Error('the provider failed') });
    expect(error.message).toMatch(/^cannot reach the target of 500 tokens: no strategy got under the limit/);
    expect(error.best).toBeNaN();
  });
});
