import { describe, expect, it } from 'vitest';
import { BudgetUnreachableError } from './budget-unreachable-error.js';
import { CompactionError } from './compaction-error.js';
import { ContextOverflowError } from './context-overflow-error.js';
import { InvalidMessagesError } from './invalid-messages-error.js';
import { InvalidOptionsError } from './invalid-options-error.js';
import { PackageError, type PackageErrorSettings } from './package-error.js';
import { StrategyNotFoundError } from './strategy-not-found-error.js';

describe('errors', () => {
  it('carry stable codes and are recognised by isInstance', () => {
    const error = new StrategyNotFoundError({
      requestedName: 'x',
      registeredNames: ['a', 'b'],
      packageName: '@compaction/strategy-x',
    });
    expect(error.code).toBe('core/strategy-not-found');
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

  it('are defined in a few lines by other packages, with codes under their own name', () => {
    class LockedError extends CompactionError {
      static override readonly marker: string = 'compaction.error.test-locked';
      override readonly name: string = 'LockedError';
    }
    class StaleLockError extends LockedError {}
    const locked = new LockedError({ code: 'store-test/locked', message: 'the file is locked' });
    expect(locked).toMatchObject({
      name: 'LockedError',
      code: 'store-test/locked',
      message: 'the file is locked',
    });
    expect(LockedError.isInstance(locked)).toBe(true);
    expect(CompactionError.isInstance(locked)).toBe(true);
    expect(InvalidOptionsError.isInstance(locked)).toBe(false);
    // A subclass without a marker of its own is recognised as the class it extends.
    expect(LockedError.isInstance(new StaleLockError({ code: 'store-test/locked', message: '' }))).toBe(true);
    expect(LockedError.isInstance(new CompactionError({ code: 'store-test/other', message: '' }))).toBe(
      false,
    );
    // @ts-expect-error A code names the package that defines it.
    expect(new CompactionError({ code: 'locked', message: '' }).code).toBe('locked');
  });

  it('of a package with several failures share one base, coded by the reason under the package', () => {
    class StoreError extends PackageError<'closed' | 'locked'> {
      static override readonly marker: string = 'compaction.error.test-store';
      override readonly name: string = 'StoreError';
      declare readonly path: string;
      constructor({ path, ...settings }: PackageErrorSettings<'closed' | 'locked'> & { path: string }) {
        super('store-test', settings);
        Object.assign(this, { path });
      }
    }
    const cause = new Error('busy');
    const error = new StoreError({ reason: 'locked', path: 'a.db', message: 'a.db is locked', cause });
    expect(error).toMatchObject({
      code: 'store-test/locked',
      reason: 'locked',
      path: 'a.db',
      name: 'StoreError',
    });
    expect(error.message).toBe('a.db is locked');
    expect(error.cause).toBe(cause);
    expect(StoreError.isInstance(error)).toBe(true);
    expect(CompactionError.isInstance(error)).toBe(true);
    expect(StoreError.isInstance(new CompactionError({ code: 'store-test/locked', message: '' }))).toBe(
      false,
    );
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

  it('name the target asked for and the best reached, with the limit when it differs', () => {
    const error = new BudgetUnreachableError({
      target: 507,
      best: 2028,
      reason: 'the task alone is over it',
    });
    expect(error.message).toBe(
      'Cannot reach the target of 507 tokens: the best is 2,028 (the task alone is over it)',
    );
    expect(error).toMatchObject({ code: 'core/budget-unreachable', target: 507, best: 2028, limit: 507 });
    const overLimit = new BudgetUnreachableError({ target: 122_000, best: 190_500.4, limit: 180_000 });
    expect(overLimit.message).toBe(
      'Cannot reach the target of 122,000 tokens: the best is 190,500, over the limit of 180,000',
    );
    expect(overLimit.reason).toBeUndefined();
  });

  it('take the target as the limit when none is given, or when the one given is below it', () => {
    const withoutLimit = new BudgetUnreachableError({ target: 600, best: 900, reason: 'too large' });
    expect(withoutLimit).toMatchObject({ target: 600, best: 900, limit: 600, reason: 'too large' });
    expect(withoutLimit.message).toBe('Cannot reach the target of 600 tokens: the best is 900 (too large)');
    expect(new BudgetUnreachableError({ target: 600, best: 900, limit: 500 }).limit).toBe(600);
  });
});
