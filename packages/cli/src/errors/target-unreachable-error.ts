import { BudgetUnreachableError, CompactionError } from '@compaction/core';
import { formatCount } from '../output/format-numbers.js';

/** The budget a compaction was asked to meet, in the user's terms. */
export interface UnreachableBudget {
  /** The target it aimed for. */
  target: number;
  /** Whether the user gave the target (a flag or the config), rather than the command's default. */
  targetGiven: boolean;
  /** The hard limit: the context window less reserved output and the safety margin. */
  limit: number;
  contextWindow: number;
}

/**
 * The history cannot be compacted within the limit. Its message names the numbers the user gave (the target,
 * or the context window when no target was given) and the best any strategy reached; the CLI exits with 3 and
 * the server answers 422 (its `code` is core's `core/budget-unreachable`).
 */
export class TargetUnreachableError extends CompactionError {
  static override readonly marker: string = 'compaction.error.target-unreachable';
  override readonly name: string = 'TargetUnreachableError';
  readonly target: number;
  readonly limit: number;
  readonly contextWindow: number;
  /** Tokens of the smallest result a strategy reached, when known. */
  readonly best: number | undefined;

  constructor({ budget, cause }: { budget: UnreachableBudget; cause: unknown }) {
    const best = bestOf(cause);
    const reason = reasonOf(cause);
    const target = `the ${budget.targetGiven ? '' : 'default '}target of ${formatCount(budget.target)} tokens`;
    const limit = `the limit of ${formatCount(budget.limit)} tokens (a ${formatCount(budget.contextWindow)}-token context window less reserved output and margin)`;
    let head: string;
    if (best === undefined) {
      head = `cannot reach ${target}: no strategy got under ${limit}`;
    } else if (best <= budget.limit) {
      // Within the limit, yet failed: no strategy made progress towards the target.
      head = `cannot reach ${target}: the best is ${formatCount(best)}`;
    } else if (budget.targetGiven) {
      head = `cannot reach ${target}: the best is ${formatCount(best)}, over ${limit}`;
    } else {
      head = `cannot fit ${limit}: the best is ${formatCount(best)}`;
    }
    super({
      code: 'core/budget-unreachable',
      message: reason === undefined ? head : `${head}; ${reason}`,
      cause,
    });
    this.target = budget.target;
    this.limit = budget.limit;
    this.contextWindow = budget.contextWindow;
    this.best = best;
  }
}

/**
 * The best result reached: the error's own `best` when it carries one; otherwise the tokens of the strategy's
 * error it wraps (the Compactor's own error counts the input, not a result).
 */
function bestOf(error: unknown): number | undefined {
  const own = (error as { best?: unknown } | undefined)?.best;
  if (typeof own === 'number') return own;
  const inner = innermostUnreachable(error);
  return inner === error ? undefined : inner?.best;
}

/** Why it was unreachable, in the innermost strategy's words, when it says. */
function reasonOf(error: unknown): string | undefined {
  const inner = innermostUnreachable(error);
  const own = (inner as { reason?: unknown } | undefined)?.reason;
  if (typeof own === 'string') return own;
  return inner === undefined ? undefined : /\(best: \d+\): (.+)$/s.exec(inner.message)?.[1];
}

function innermostUnreachable(error: unknown): BudgetUnreachableError | undefined {
  let found: BudgetUnreachableError | undefined;
  for (let current = error; BudgetUnreachableError.isInstance(current); current = current.cause) {
    found = current;
  }
  return found;
}
