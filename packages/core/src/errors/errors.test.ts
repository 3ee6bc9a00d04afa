import { describe, expect, it } from 'vitest';
import { BudgetUnreachableError } from './budget-unreachable-error.js';
import { CompactionError } from './compaction-error.js';
import { ContextOverflowError } from './context-overflow-error.js';
import { InvalidMessagesError } from './invalid-messages-error.js';
import { InvalidOptionsError } from './invalid-options-error.js';
import { StrategyNotFoundError } from './strategy-not-found-error.js';

describe('errors', () => {
  it('carry stable codes and are recognised by isInstance', () => {
    const error = new StrategyNotFoundError({
      strategyName: 'x',
      registeredNames: ['a', 'b'],
      packageName: '@compaction/strategy-x',
    });
    expect(error.code).toBe('strategy-not-found');
    expect(error.message).toContain('Registered: a, b');
    expect(error.message).toContain('Install @compaction/strategy-x');
    expect(CompactionError.isInstance(error)).toBe(true);
    expect(StrategyNotFoundError.isInstance(error)).toBe(true);
    expect(InvalidOptionsError.isInstance(error)).toBe(false);
  });

  it('isInstance works for an error from another copy of the package (same Symbol.for marker)', () => {
    const foreign = Object.assign(new Error('from another install'), {
      [Symbol.for('compaction.error')]: true,
      [Symbol.for('compaction.error.context-overflow')]: true,
    });
    expect(CompactionError.isInstance(foreign)).toBe(true);
    expect(ContextOverflowError.isInstance(foreign)).toBe(true);
    expect(BudgetUnreachableError.isInstance(foreign)).toBe(false);
    expect(CompactionError.isInstance(new Error('plain'))).toBe(false);
    expect(CompactionError.isInstance(null)).toBe(false);
  });

  it('describe what is wrong and where', () => {
    const error = new InvalidMessagesError({
      issues: [{ index: 3, path: 'content[0].input', message: 'must be JSON' }],
    });
    expect(error.message).toBe('Invalid messages: messages[3].content[0].input: must be JSON');
    const overflow = new ContextOverflowError({
      provider: 'anthropic',
      requestTokens: 210_000,
      maximumTokens: 200_000,
    });
    expect(overflow.message).toContain('210000 tokens > 200000');
  });
});
