import { CompactionError } from '@compaction/core';
import type { SummaryFailureReason } from '../summary-failure.js';

const marker = 'compaction.error.summarization-failed';
const symbol = Symbol.for(marker);

/**
 * The summarizer failed (after the provider's own retries) and the `fallback` option is `error`. The history
 * was not changed; the Compactor runs its fallback strategy or keeps the history.
 */
export class SummarizationFailedError extends CompactionError {
  private readonly [symbol] = true;
  /** Why the summary was rejected. */
  readonly reason: SummaryFailureReason;

  constructor({
    reason,
    message,
    cause,
  }: { reason: SummaryFailureReason; message: string; cause?: unknown }) {
    super({ code: 'strategy-failed', message: `Summarization failed (${reason}): ${message}`, cause });
    this.name = 'SummarizationFailedError';
    this.reason = reason;
  }

  static override isInstance(error: unknown): error is SummarizationFailedError {
    return CompactionError.hasMarker(error, marker);
  }
}
