const marker = 'compaction.error';
const symbol = Symbol.for(marker);

/** Stable codes of every {@link CompactionError}. */
export type CompactionErrorCode =
  | 'strategy-not-found'
  | 'provider-not-found'
  | 'invalid-options'
  | 'invalid-messages'
  | 'budget-unreachable'
  | 'provider-error'
  | 'context-overflow'
  | 'rule-violation'
  | 'strategy-failed'
  | 'aborted';

/**
 * Base of every error Compaction throws. Use the static `isInstance` checks rather than `instanceof`:
 * they work across duplicate installs of the package, because they test a `Symbol.for` marker.
 */
export class CompactionError extends Error {
  private readonly [symbol] = true;

  /** A stable, machine-readable code. */
  readonly code: CompactionErrorCode;

  constructor({ code, message, cause }: { code: CompactionErrorCode; message: string; cause?: unknown }) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'CompactionError';
    this.code = code;
  }

  /** Whether `error` is a Compaction error, from this or any other copy of the package. */
  static isInstance(error: unknown): error is CompactionError {
    return CompactionError.hasMarker(error, marker);
  }

  /** @internal Shared by subclasses: tests a `Symbol.for` marker on `error`. */
  protected static hasMarker(error: unknown, name: string): boolean {
    return typeof error === 'object' && error !== null && Symbol.for(name) in error;
  }
}
