import { CompactionError } from './compaction-error.js';

const marker = 'compaction.error.budget-unreachable';
const symbol = Symbol.for(marker);

/** Compaction could not bring the conversation under the token limit without breaking a rule. */
export class BudgetUnreachableError extends CompactionError {
  private readonly [symbol] = true;
  /** Tokens of the best result reached (or of the input, when nothing could be removed). */
  readonly tokens: number;
  /** The limit that had to be met. */
  readonly limit: number;

  constructor({
    tokens,
    limit,
    reason,
    cause,
  }: { tokens: number; limit: number; reason: string; cause?: unknown }) {
    super({
      code: 'budget-unreachable',
      message: `Cannot compact to ${limit} tokens (best: ${tokens}): ${reason}`,
      cause,
    });
    this.name = 'BudgetUnreachableError';
    this.tokens = tokens;
    this.limit = limit;
  }

  static override isInstance(error: unknown): error is BudgetUnreachableError {
    return CompactionError.hasMarker(error, marker);
  }
}
