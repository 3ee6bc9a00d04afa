import { CompactionError } from './compaction-error.js';

const marker = 'compaction.error.aborted';
const symbol = Symbol.for(marker);

/** A compaction was aborted through its abort signal. */
export class CompactionAbortedError extends CompactionError {
  private readonly [symbol] = true;

  constructor({ cause }: { cause?: unknown } = {}) {
    super({ code: 'aborted', message: 'Compaction was aborted', cause });
    this.name = 'CompactionAbortedError';
  }

  static override isInstance(error: unknown): error is CompactionAbortedError {
    return CompactionError.hasMarker(error, marker);
  }
}
