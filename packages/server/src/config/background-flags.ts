import { type BackgroundSettings, type BudgetOptions, resolveBudget } from '@compaction/core';
import { usageError } from '../errors/cli-error.js';
import { parseDecimalInteger } from '../serve/decimal-integer.js';
import { parseTokenAmount } from './token-amount.js';

/** The flags of `compaction serve` and `compaction proxy` that turn background compaction on. */
export interface BackgroundFlags {
  'background-at'?: string;
  'background-concurrency'?: string;
}

/** Background compactions running at once across a server's conversations when no flag says. */
export const defaultBackgroundConcurrency = 4;

/**
 * The `background` setting the flags ask for, or `undefined` (off) without `--background-at`. The range of
 * `--background-at` is checked against the budget by {@link checkBackground}, once the context window is known.
 */
export function readBackgroundFlags(flags: BackgroundFlags): BackgroundSettings | undefined {
  const at = flags['background-at'];
  const concurrency = flags['background-concurrency'];
  if (at === undefined) {
    if (concurrency !== undefined) {
      throw usageError('--background-concurrency needs --background-at (where background compaction starts)');
    }
    return undefined;
  }
  const prepareAt = parseTokenAmount(at, '--background-at');
  if (concurrency === undefined) return { prepareAt, maximumConcurrent: defaultBackgroundConcurrency };
  const maximumConcurrent = parseDecimalInteger(concurrency);
  if (maximumConcurrent === undefined || maximumConcurrent < 1) {
    throw usageError(`--background-concurrency must be an integer of at least 1, got "${concurrency}"`);
  }
  return { prepareAt, maximumConcurrent };
}

/** Where background compaction starts, in tokens of a budget whose limit is `limit`. */
export function backgroundStartTokens(background: BackgroundSettings, limit: number): number {
  const { prepareAt } = background;
  return Math.floor(prepareAt <= 1 ? prepareAt * limit : prepareAt);
}

/**
 * Why `background` does not fit the budget, or `undefined` when it does: it must start above the target (under
 * it a compaction finds nothing to do) and below the trigger (at the trigger the work is in line anyway), and
 * needs an automatic trigger.
 */
export function backgroundMisfit(
  background: BackgroundSettings,
  budgetOptions: BudgetOptions,
): string | undefined {
  const budget = resolveBudget(budgetOptions);
  const start = backgroundStartTokens(background, budget.limit);
  if (budget.trigger === null) return 'background compaction needs an automatic trigger (--trigger is off)';
  if (start <= budget.target || start >= budget.trigger) {
    return (
      `background compaction would start at ${start} tokens: it must be above the target (${budget.target}) ` +
      `and below the trigger (${budget.trigger}) of a ${budget.contextWindow}-token window`
    );
  }
  return undefined;
}

/** Throws a usage error naming `--background-at` when `background` does not fit the operator's budget. */
export function checkBackground(background: BackgroundSettings | undefined, budget: BudgetOptions): void {
  if (background === undefined) return;
  const misfit = backgroundMisfit(background, budget);
  if (misfit !== undefined) throw usageError(`--background-at: ${misfit}`);
}
