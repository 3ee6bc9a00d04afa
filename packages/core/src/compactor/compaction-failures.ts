import { BudgetUnreachableError } from '../errors/budget-unreachable-error.js';
import { CompactionAbortedError } from '../errors/compaction-aborted-error.js';
import { CompactionError } from '../errors/compaction-error.js';
import { RuleViolationError } from '../errors/rule-violation-error.js';
import { StrategyFailedError } from '../errors/strategy-failed-error.js';
import type { CompactionFailure } from './compaction-event.js';

export function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return CompactionAbortedError.isInstance(error) || (signal?.aborted === true && error === signal.reason);
}

/** A strategy's failure as plain JSON, for events and the store. */
export function describeFailure(strategy: string, error: unknown): CompactionFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (RuleViolationError.isInstance(error)) {
    return { strategy, code: error.code, error: message, violations: error.violations };
  }
  if (BudgetUnreachableError.isInstance(error)) {
    return { strategy, code: error.code, error: message, target: error.target, best: error.best };
  }
  const code = CompactionError.isInstance(error) ? error.code : 'core/strategy-failed';
  return { strategy, code, error: message };
}

/**
 * The error a compaction ends with when every strategy failed: an unreachable budget first (it is what the
 * user can act on), from the strategy that came closest, passed on unchanged; otherwise the last error.
 */
export function finalError(errors: readonly unknown[], strategy: string): CompactionError {
  let closest: BudgetUnreachableError | undefined;
  for (const error of errors) {
    if (BudgetUnreachableError.isInstance(error) && (closest === undefined || error.best < closest.best)) {
      closest = error;
    }
  }
  const last = errors[errors.length - 1];
  if (closest !== undefined) return closest;
  if (CompactionError.isInstance(last)) return last;
  return new StrategyFailedError({ strategy, cause: last });
}
