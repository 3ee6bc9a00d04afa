import { PackageError, type PackageErrorSettings } from '@compaction/core';
import type { ProcessIdentity } from '../process-identity.js';

/**
 * Why a SQLite store call failed: the file stayed locked by a running process for the whole wait (`locked`),
 * the store was closed (`closed`), the file was written by a newer version of this package (`newer-schema`),
 * or SQLite or the file system failed (`failed`, with SQLite's message; also when the store's worker stopped, or
 * a call's values cannot be copied to it, as values that are not JSON may not).
 */
export type SqliteStoreErrorReason = 'locked' | 'closed' | 'newer-schema' | 'failed';

/** A call on a {@link SqliteCompactionStore} that did not happen. Nothing was written by it. */
export class SqliteStoreError extends PackageError<SqliteStoreErrorReason> {
  static override readonly marker: string = 'compaction.error.sqlite-store';
  override readonly name: string = 'SqliteStoreError';
  /** The database file. */
  declare readonly path: string;
  /** For `locked`: the process that held the lock when the wait ended, when it could be read. */
  declare readonly holder: ProcessIdentity | undefined;

  constructor({
    path,
    holder,
    ...settings
  }: PackageErrorSettings<SqliteStoreErrorReason> & { path: string; holder?: ProcessIdentity }) {
    super('store-sqlite', settings);
    Object.assign(this, { path, holder });
  }
}
