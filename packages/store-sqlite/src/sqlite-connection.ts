import sqlite from 'node-sqlite3-wasm';
import { DatabaseLock, type LockRecord } from './database-lock.js';

/** The node-sqlite3-wasm database of a connection. */
export type Database = InstanceType<typeof sqlite.Database>;

/** The outcome of {@link SqliteConnection.attempt}: the work's value, or who held the lock instead. */
export type ConnectionAttempt<T> = { done: true; value: T } | { done: false; holder: LockRecord | undefined };

/**
 * One open database file and the lock around it. Every use goes through {@link SqliteConnection.attempt},
 * which runs synchronously and never waits: waiting is the caller's, so that it can wait without blocking.
 */
export class SqliteConnection {
  private readonly database: Database;
  private readonly lock: DatabaseLock;

  constructor(
    readonly path: string,
    staleLockMs: number,
  ) {
    this.lock = new DatabaseLock(path, staleLockMs);
    this.database = new sqlite.Database(path);
    // Pages freed by a delete or an update are overwritten, so deleted sessions' text does not stay in the file.
    this.database.exec('PRAGMA secure_delete = ON');
  }

  get isOpen(): boolean {
    return this.database.isOpen;
  }

  /** Runs `work` under the lock when the lock can be had now (or taken over from a dead holder). */
  attempt<T>(work: (database: Database) => T): ConnectionAttempt<T> {
    const lock = this.lock.tryAcquire();
    if (!lock.acquired) return { done: false, holder: lock.holder };
    try {
      return { done: true, value: work(this.database) };
    } catch (error) {
      if (!isSqliteBusy(error)) throw error;
      // Holding our lock, SQLite's can only be held by a program that does not take ours.
      this.lock.removeSqliteLockOlderThanStale();
      return { done: false, holder: undefined };
    } finally {
      this.lock.release();
    }
  }

  close(): void {
    if (this.database.isOpen) this.database.close();
    this.lock.dispose();
  }
}

/** Runs `work` in an immediate (write) transaction, rolled back when it throws. */
export function inTransaction<T>(database: Database, work: () => T): T {
  database.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    database.exec('COMMIT');
    return result;
  } catch (error) {
    if (database.inTransaction) database.exec('ROLLBACK');
    throw error;
  }
}

function isSqliteBusy(error: unknown): boolean {
  return error instanceof Error && /database is locked|busy/i.test(error.message);
}
