import { CompactionError } from './compaction-error.js';

/** What a {@link BudgetUnreachableError} is built from. */
export interface BudgetUnreachableSettings {
  /** The target the compaction was asked to reach, in tokens. */
  target: number;
  /** Tokens of the smallest history the strategy could build (or of the input, when nothing could go). */
  best: number;
  /** The hard limit the result had to meet; defaults to `target`. */
  limit?: number;
  /** Why the strategy could not go lower, such as what it may not remove. */
  reason?: string;
  /** The error that led to this one, if any. */
  cause?: unknown;
}

/**
 * A strategy (or every strategy the Compactor tried) could not shrink the conversation to its target
 * without breaking a rule: the messages it may not remove or shorten are too large. The message names the
 * user's numbers, as in `Cannot reach the target of 507 tokens: the best is 2,028 (...)`.
 */
export class BudgetUnreachableError extends CompactionError {
  static override readonly marker: string = 'compaction.error.budget-unreachable';
  override readonly name: string = 'BudgetUnreachableError';
  /** The target the compaction was asked to reach, in tokens. */
  readonly target: number;
  /** Tokens of the smallest history the strategy could build. */
  readonly best: number;
  /** The hard limit the result had to meet (at least `target`). */
  readonly limit: number;
  /** Why the strategy could not go lower, when it said. */
  readonly reason: string | undefined;

  constructor({ target, best, limit = target, reason, cause }: BudgetUnreachableSettings) {
    const overLimit = limit > target ? `, over the limit of ${formatTokens(limit)}` : '';
    super({
      code: 'core/budget-unreachable',
      message:
        `Cannot reach the target of ${formatTokens(target)} tokens: the best is ${formatTokens(best)}` +
        `${overLimit}${reason === undefined ? '' : ` (${reason})`}`,
      cause,
    });
    this.target = target;
    this.best = best;
    this.limit = Math.max(limit, target);
    this.reason = reason;
  }
}

/** A token count as users read it: rounded, with thousands separators. */
function formatTokens(tokens: number): string {
  return Math.round(tokens).toLocaleString('en-US');
}
