import { CompactionError } from './compaction-error.js';

/** A strategy threw an error that is not a Compaction error, and no fallback succeeded. */
export class StrategyFailedError extends CompactionError {
  static override readonly marker: string = 'compaction.error.strategy-failed';
  override readonly name: string = 'StrategyFailedError';
  readonly strategy: string;
  constructor({ strategy, cause }: { strategy: string; cause?: unknown }) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super({ code: 'core/strategy-failed', message: `Strategy "${strategy}" failed: ${reason}`, cause });
    this.strategy = strategy;
  }
}
