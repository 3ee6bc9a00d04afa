import { describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { resolveBudget } from './budget.js';

describe('resolveBudget', () => {
  it('applies documented defaults', () => {
    const budget = resolveBudget({ contextWindow: 200_000 });
    expect(budget.reservedOutputTokens).toBe(8192);
    expect(budget.safetyMargin).toBe(10_000);
    expect(budget.limit).toBe(200_000 - 8192 - 10_000);
    expect(budget.trigger).toBe(Math.floor(budget.limit * 0.85));
    expect(budget.target).toBe(Math.floor(budget.limit * 0.6));
    expect(budget.minimumMessages).toBe(4);
  });

  it('reads numbers in (0, 1] as fractions and above 1 as tokens', () => {
    const budget = resolveBudget({
      contextWindow: 10_000,
      reservedOutputTokens: 1000,
      safetyMargin: 0,
      trigger: 8000,
      target: 0.5,
    });
    expect(budget.limit).toBe(9000);
    expect(budget.trigger).toBe(8000);
    expect(budget.target).toBe(4500);
  });

  it('disables automatic compaction with 0 or false', () => {
    expect(resolveBudget({ contextWindow: 10_000, trigger: false }).trigger).toBeNull();
    expect(resolveBudget({ contextWindow: 10_000, trigger: 0 }).trigger).toBeNull();
  });

  it('rejects a target at or above the trigger, with the path', () => {
    const attempt = () => resolveBudget({ contextWindow: 10_000, trigger: 0.5, target: 0.6 });
    expect(attempt).toThrow(InvalidOptionsError);
    try {
      attempt();
    } catch (error) {
      expect((error as InvalidOptionsError).issues[0]?.path).toBe('target');
    }
  });

  it('rejects a window that leaves no room', () => {
    expect(() => resolveBudget({ contextWindow: 100, reservedOutputTokens: 100 })).toThrow(/leaves no room/);
    expect(() => resolveBudget({ contextWindow: -5 })).toThrow(/contextWindow: must be greater than 0/);
  });
});
