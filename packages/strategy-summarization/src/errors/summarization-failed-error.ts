import { CompactionError } from '@compaction/core';
import type { SummaryFailureReason } from '../summary-failure.js';

/**
 * The summarizer failed (after the provider's own retries) and the `fallback` option is `error`. The history
 * was not changed; the Compactor runs its fallback strategy or keeps the history.
 */
export class SummarizationFailedError extends CompactionError {
  static override readonly marker: string = 'compaction.error.summarization-failed';
  override readonly name: string = 'SummarizationFailedError';
  /** Why the summary was rejected. */
  readonly reason: SummaryFailureReason;

  constructor({
    reason,
    message,
    cause,
  }: { reason: SummaryFailureReason; message: string; cause?: unknown }) {
    super({ code: 'core/strategy-failed', message: `Summarization failed (${reason}): ${message}`, cause });
    this.reason = reason;
  }
}
