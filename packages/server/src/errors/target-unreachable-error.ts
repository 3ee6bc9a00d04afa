import { BudgetUnreachableError, type BudgetUnreachableSettings } from '@compaction/core';
import { formatCount } from '../output/format-numbers.js';

/** The budget a compaction was asked to meet, in the user's terms. */
export interface UnreachableBudget extends Required<Pick<BudgetUnreachableSettings, 'target' | 'limit'>> {
  /** Whether the user gave the target (a flag or the config), rather than the command's default. */
  targetGiven: boolean;
  contextWindow: number;
}

/**
 * The history cannot be compacted within the limit: core's {@link BudgetUnreachableError} (its `target`,
 * `limit`, `best` and `reason`, and its code `core/budget-unreachable`), worded for the command line. Its
 * message names the numbers the user gave (the target, or the context window when no target was given) and
 * the best any strategy reached; the CLI exits with 3 and the server answers 422. `best` is `NaN` when the
 * error it wraps did not say.
 */
export class TargetUnreachableError extends BudgetUnreachableError {
  static override readonly marker: string = 'compaction.error.target-unreachable';
  override readonly name: string = 'TargetUnreachableError';
  readonly contextWindow: number;

  /**
   * `strategy`: the names the user gave (or the default's), in order. Several names run as core's `pipeline`,
   * which the reason then speaks of by these names rather than by a strategy the user never named.
   */
  constructor({
    budget,
    cause,
    strategy,
  }: { budget: UnreachableBudget; cause: unknown; strategy?: readonly string[] }) {
    const best = bestOf(cause);
    const innerReason = reasonOf(cause);
    const reason =
      strategy === undefined || strategy.length < 2
        ? innerReason
        : innerReason?.replaceAll('"pipeline"', strategy.join(' → '));
    const { target, limit } = budget;
    super({ target, best: best ?? Number.NaN, limit, ...(reason === undefined ? {} : { reason }), cause });
    // Core's message speaks of tokens only; the command's names the flags' numbers and the context window.
    this.message = messageOf(budget, best, reason);
    this.contextWindow = budget.contextWindow;
  }
}

function messageOf(budget: UnreachableBudget, best: number | undefined, reason: string | undefined): string {
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
  return reason === undefined ? head : `${head}; ${reason}`;
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
