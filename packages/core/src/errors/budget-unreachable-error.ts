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

/** No strategy tried could shrink the conversation to its target without breaking a rule. */
export class BudgetUnreachableError extends CompactionError {
  static override readonly marker: string = 'compaction.error.budget-unreachable';
  override readonly name: string = 'BudgetUnreachableError';
  /** The target the compaction was asked to reach, in tokens. */
  declare readonly target: number;
  /** Tokens of the smallest history the strategy could build. */
  declare readonly best: number;
  /** The hard limit the result had to meet (at least `target`). */
  declare readonly limit: number;
  /** Why the strategy could not go lower, when it said. */
  declare readonly reason: string | undefined;
  constructor({ target, best, limit = target, reason, cause }: BudgetUnreachableSettings) {
    const tokens = (count: number) => Math.round(count).toLocaleString('en-US');
    const overLimit = limit > target ? `, over the limit of ${tokens(limit)}` : '';
    const why = reason === undefined ? '' : ` (${reason})`;
    const message = `Cannot reach the target of ${tokens(target)} tokens: the best is ${tokens(best)}`;
    super({ code: 'core/budget-unreachable', message: message + overLimit + why, cause });
    Object.assign(this, { target, best, limit: Math.max(limit, target), reason });
  }
}
