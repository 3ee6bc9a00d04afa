import { CompactionError } from './compaction-error.js';

/** A compaction was aborted through its abort signal. */
export class CompactionAbortedError extends CompactionError {
  static override readonly marker: string = 'compaction.error.aborted';
  override readonly name: string = 'CompactionAbortedError';
  constructor({ cause }: { cause?: unknown } = {}) {
    super({ code: 'core/aborted', message: 'Compaction was aborted', cause });
  }
}
