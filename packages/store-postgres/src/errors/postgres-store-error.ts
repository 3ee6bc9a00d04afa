import { PackageError, type PackageErrorSettings } from '@compaction/core';

/**
 * Why a PostgreSQL store call failed: the store was closed (`closed`), a session's lock stayed held by another
 * process for the whole lock timeout (`lock-timeout`), the database's schema was written by a newer version of
 * this package (`newer-schema`), or the database or the connection failed (`failed`, with PostgreSQL's message).
 */
export type PostgresStoreErrorReason = 'closed' | 'lock-timeout' | 'newer-schema' | 'failed';

/** A call on a {@link PostgresCompactionStore} that did not happen. Nothing was written by it. */
export class PostgresStoreError extends PackageError<PostgresStoreErrorReason> {
  static override readonly marker: string = 'compaction.error.postgres-store';
  override readonly name: string = 'PostgresStoreError';
  /** The database, as its connection string without the password. */
  declare readonly database: string;

  constructor({
    database,
    ...settings
  }: PackageErrorSettings<PostgresStoreErrorReason> & { database: string }) {
    super('store-postgres', settings);
    Object.assign(this, { database });
  }
}
