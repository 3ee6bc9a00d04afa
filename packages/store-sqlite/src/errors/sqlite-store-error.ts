import { CompactionError } from '@compaction/core';
import type { ProcessIdentity } from '../process-identity.js';

const marker = 'compaction.error.sqlite-store';
const symbol = Symbol.for(marker);

/**
 * Why a SQLite store call failed: the file stayed locked by a running process for the whole wait (`locked`),
 * the store was closed (`closed`), the file was written by a newer version of this package (`newer-schema`),
 * or SQLite or the file system failed (`failed`, with SQLite's message; also when the store's worker stopped, or
 * a call's values cannot be copied to it, as values that are not JSON may not).
 */
export type SqliteStoreErrorReason = 'locked' | 'closed' | 'newer-schema' | 'failed';

/** A call on a {@link SqliteCompactionStore} that did not happen. Nothing was written by it. */
export class SqliteStoreError extends CompactionError {
  private readonly [symbol] = true;
  readonly reason: SqliteStoreErrorReason;
  /** The database file. */
  readonly path: string;
  /** For `locked`: the process that held the lock when the wait ended, when it could be read. */
  readonly holder: ProcessIdentity | undefined;

  constructor({
    reason,
    path,
    message,
    holder,
    cause,
  }: {
    reason: SqliteStoreErrorReason;
    path: string;
    message: string;
    holder?: ProcessIdentity;
    cause?: unknown;
  }) {
    // Core's closed code list has no store code yet: a file this version cannot read is reported as bad
    // options (the path), a call that was given up as aborted.
    super({ code: reason === 'newer-schema' ? 'invalid-options' : 'aborted', message, cause });
    this.name = 'SqliteStoreError';
    this.reason = reason;
    this.path = path;
    this.holder = holder;
  }

  static override isInstance(error: unknown): error is SqliteStoreError {
    return CompactionError.hasMarker(error, marker);
  }
}
