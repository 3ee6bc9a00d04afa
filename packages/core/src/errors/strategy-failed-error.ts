import { CompactionError } from './compaction-error.js';

const marker = 'compaction.error.strategy-failed';
const symbol = Symbol.for(marker);

/** A strategy threw an error that is not a Compaction error, and no fallback succeeded. */
export class StrategyFailedError extends CompactionError {
  private readonly [symbol] = true;
  readonly strategy: string;

  constructor({ strategy, cause }: { strategy: string; cause?: unknown }) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super({ code: 'strategy-failed', message: `Strategy "${strategy}" failed: ${reason}`, cause });
    this.name = 'StrategyFailedError';
    this.strategy = strategy;
  }

  static override isInstance(error: unknown): error is StrategyFailedError {
    return CompactionError.hasMarker(error, marker);
  }
}
