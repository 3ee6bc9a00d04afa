import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  ArchiveSearchHit,
  ArchiveSearchQuery,
  CompactionRecord,
  CompactionStore,
  JSONObject,
  SessionUsage,
} from '@compaction/core';
import { planArchiveSearch } from '@compaction/core/stores';
import pg from 'pg';
import { PostgresStoreError } from './errors/postgres-store-error.js';
import { applyMigrations } from './migrations.js';
import { redactConnectionString } from './redact-connection-string.js';
import { searchArchivedItems } from './search-archived-items.js';
import { type Queryable, storeQueries } from './store-queries.js';

/** Settings of a {@link PostgresCompactionStore}. */
export interface PostgresCompactionStoreSettings {
  /** The database, as `postgres://user:password@host:port/database` or any string `pg` reads. */
  connectionString: string;
  /**
   * Most connections the store opens at once. Default 10. A session operation under
   * {@link PostgresCompactionStore.withSessionLock} holds one of them from the lock to its commit.
   */
  poolSize?: number;
  /** Longest wait for a session's lock, in milliseconds, before `lock-timeout`. Default 30 seconds. */
  lockTimeoutMs?: number;
  /** Longest wait for a connection (opening one, or a free one of the pool), in milliseconds. Default 30 seconds. */
  connectionTimeoutMs?: number;
  /** Applies the migrations the database lacks before the first call. Default true. */
  migrate?: boolean;
}

/** The default of {@link PostgresCompactionStoreSettings.poolSize}. */
export const defaultPoolSize = 10;
/** The default of {@link PostgresCompactionStoreSettings.lockTimeoutMs}. */
export const defaultLockTimeoutMs = 30_000;

/** The schema versions each store applied at opening, for {@link migratePostgresStore}, which reports them. */
const appliedMigrations = new WeakMap<PostgresCompactionStore, Promise<number[]>>();

/** A fixed first key of every session lock, so this package's advisory locks do not meet an application's. */
const sessionLockClass = 0x636f6d70;

/** The transaction of a session that {@link PostgresCompactionStore.withSessionLock} holds in this call chain. */
interface SessionTransaction {
  sessionId: string;
  client: pg.PoolClient;
  open: boolean;
}

/**
 * A {@link CompactionStore} in PostgreSQL, shared by any number of processes: compaction records with the
 * messages they removed, and session metadata. Appending a record again (same event id) changes nothing, so
 * a retried append never duplicates. {@link withSessionLock} locks one session across every process with
 * an advisory lock of its transaction, which PostgreSQL releases itself when the holding connection dies.
 */
export class PostgresCompactionStore implements CompactionStore {
  /** The database, as its connection string without the password. */
  readonly database: string;
  readonly lockTimeoutMs: number;
  /** The schema versions applied at opening (none when it was up to date or `migrate` is false). */
  private readonly migrations: Promise<number[]>;
  private readonly pool: pg.Pool;
  private readonly transactions = new AsyncLocalStorage<SessionTransaction>();
  private closing: Promise<void> | undefined;

  constructor(settings: PostgresCompactionStoreSettings) {
    this.database = redactConnectionString(settings.connectionString);
    this.lockTimeoutMs = settings.lockTimeoutMs ?? defaultLockTimeoutMs;
    this.pool = new pg.Pool({
      connectionString: settings.connectionString,
      max: settings.poolSize ?? defaultPoolSize,
      connectionTimeoutMillis: settings.connectionTimeoutMs ?? 30_000,
      application_name: 'compaction',
    });
    // An idle connection that breaks (a database restart) is dropped by the pool, and the next call opens a
    // new one; without a listener the error would end the process.
    this.pool.on('error', () => undefined);
    this.migrations = settings.migrate === false ? Promise.resolve([]) : this.migrate();
    this.migrations.catch(() => undefined);
    appliedMigrations.set(this, this.migrations);
  }

  /**
   * Resolves once the database is reachable and its schema current (the migrations applied unless `migrate`
   * is false); rejects with a {@link PostgresStoreError} when it is not. Calls made before wait for it.
   */
  async opened(): Promise<void> {
    await this.migrations;
    await this.sessions();
  }

  append(record: CompactionRecord): Promise<void> {
    return this.run(record.event.sessionId, (client) => storeQueries.append(client, record));
  }

  list(sessionId: string): Promise<CompactionRecord[]> {
    return this.run(sessionId, (client) => storeQueries.list(client, sessionId));
  }

  sessions(): Promise<string[]> {
    return this.run(undefined, (client) => storeQueries.sessions(client));
  }

  getSessionMetadata(sessionId: string): Promise<JSONObject | undefined> {
    return this.run(sessionId, (client) => storeQueries.getSessionMetadata(client, sessionId));
  }

  updateSessionMetadata(sessionId: string, metadata: JSONObject): Promise<JSONObject> {
    return this.run(sessionId, async (client, inTransaction) => {
      if (inTransaction) return storeQueries.updateSessionMetadata(client, sessionId, metadata);
      return this.transaction((own) => storeQueries.updateSessionMetadata(own, sessionId, metadata));
    });
  }

  /**
   * Deletes the session's records, what they removed and archived, and its metadata, in one transaction
   * holding the session's lock, so a change another process is making to it finishes first.
   */
  deleteSession(sessionId: string): Promise<void> {
    return this.withSessionLock(sessionId, () =>
      storeQueries.deleteSession(this.current(sessionId)!.client, sessionId),
    ).catch((error: unknown) => {
      throw this.describe(error, sessionId);
    });
  }

  /**
   * Full-text search over what the records archived (see the README): every word and phrase anywhere in an
   * item, in any case; ranked by how much of the item the matches cover, equal matches newest first. Rejects
   * a query that cannot run with `InvalidSearchQueryError`.
   */
  async searchArchived(query: ArchiveSearchQuery): Promise<ArchiveSearchHit[]> {
    const plan = planArchiveSearch(query);
    return this.run(plan.sessionId, (client, inTransaction) => {
      if (inTransaction) return searchArchivedItems(client, plan);
      return this.transaction(async (own) => {
        // The planner costs the items' text as if it were in the table, not compressed apart (TOAST), so it
        // picks a sequential scan that decompresses every item over the trigram index: 470 ms against 1 ms
        // for 20,000 items of 3 KB. Only this transaction's plans are told to avoid it.
        await own.query("SELECT set_config('enable_seqscan', 'off', true)");
        return searchArchivedItems(own, plan);
      });
    });
  }

  sessionUsage(): Promise<SessionUsage[]> {
    return this.run(undefined, (client) => storeQueries.sessionUsage(client));
  }

  /**
   * Runs `operation` holding the session's lock: a transaction-scoped advisory lock, taken within the lock
   * timeout or not at all (`lock-timeout`). The store's calls for this session inside it run in that
   * transaction, committed when `operation` resolves and rolled back when it throws. Called again for the
   * same session inside `operation`, it runs `operation` in the lock already held.
   */
  async withSessionLock<T>(sessionId: string, operation: () => Promise<T>): Promise<T> {
    if (this.current(sessionId) !== undefined) return operation();
    // The operation's own failure goes to the caller as it is; only the store's are described.
    let failure: { error: unknown } | undefined;
    return this.guard(() =>
      this.transaction(async (client) => {
        await client.query("SELECT set_config('lock_timeout', $1, true)", [`${this.lockTimeoutMs}ms`]);
        await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [sessionLockClass, sessionId]);
        const transaction: SessionTransaction = { sessionId, client, open: true };
        try {
          return await this.transactions.run(transaction, operation);
        } catch (error) {
          failure = { error };
          throw error;
        } finally {
          // A call that outlives the operation must not use a connection that went back to the pool.
          transaction.open = false;
        }
      }),
    ).catch((error: unknown) => {
      throw failure?.error === error ? error : this.describe(error, sessionId);
    });
  }

  /** Closes every connection once the calls under way are done. Further calls fail with `closed`. */
  close(): Promise<void> {
    this.closing ??= this.pool.end().catch(() => undefined);
    return this.closing;
  }

  private async migrate(): Promise<number[]> {
    const client = await this.pool.connect().catch((error: unknown) => {
      throw this.describe(error);
    });
    try {
      return await applyMigrations(client, this.database);
    } catch (error) {
      throw this.describe(error);
    } finally {
      client.release();
    }
  }

  /** The open transaction of `sessionId` in this call chain, if there is one. */
  private current(sessionId: string | undefined): SessionTransaction | undefined {
    const transaction = this.transactions.getStore();
    return transaction?.open && transaction.sessionId === sessionId ? transaction : undefined;
  }

  /** Runs a call in the session's open transaction when there is one, otherwise on the pool. */
  private run<T>(
    sessionId: string | undefined,
    call: (client: Queryable, inTransaction: boolean) => Promise<T>,
  ): Promise<T> {
    const transaction = this.current(sessionId);
    return this.guard(() =>
      transaction === undefined ? call(this.pool, false) : call(transaction.client, true),
    ).catch((error: unknown) => {
      throw this.describe(error, sessionId);
    });
  }

  /** Refuses calls after close, and waits for the migrations first. */
  private async guard<T>(call: () => Promise<T>): Promise<T> {
    if (this.closing !== undefined) {
      throw new PostgresStoreError({
        reason: 'closed',
        database: this.database,
        message: `the PostgreSQL store ${this.database} is closed`,
      });
    }
    await this.migrations;
    return call();
  }

  /** Runs `body` in a transaction on a connection of its own. */
  private async transaction<T>(body: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await body(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      throw error;
    } finally {
      // A connection whose rollback failed is not given back to the pool.
      client.release(broken);
    }
  }

  /** A {@link PostgresStoreError} for any failure, naming the database without its password. */
  private describe(error: unknown, sessionId?: string): PostgresStoreError {
    if (PostgresStoreError.isInstance(error)) return error as PostgresStoreError;
    if ((error as { code?: unknown }).code === '55P03') {
      return new PostgresStoreError({
        reason: 'lock-timeout',
        database: this.database,
        message: `session "${sessionId}" stayed locked by another process for ${this.lockTimeoutMs} ms (the lock timeout) in ${this.database}`,
        cause: error,
      });
    }
    return new PostgresStoreError({
      reason: 'failed',
      database: this.database,
      message: `the PostgreSQL store ${this.database} failed: ${(error as Error).message}`,
      cause: error,
    });
  }
}

/** A store on the database; the migrations run before its first call (see {@link openPostgresCompactionStore}). */
export function createPostgresCompactionStore(
  settings: PostgresCompactionStoreSettings,
): PostgresCompactionStore {
  return new PostgresCompactionStore(settings);
}

/**
 * A store on the database once it is reachable and its schema is current (migrations applied unless
 * `migrate` is false); rejects with a {@link PostgresStoreError} otherwise, with nothing left open.
 */
export async function openPostgresCompactionStore(
  settings: PostgresCompactionStoreSettings,
): Promise<PostgresCompactionStore> {
  const store = new PostgresCompactionStore(settings);
  try {
    await store.opened();
    return store;
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** Applies the migrations the database lacks and returns the versions applied (empty when it was current). */
export async function migratePostgresStore(connectionString: string): Promise<number[]> {
  const store = new PostgresCompactionStore({ connectionString, poolSize: 1 });
  try {
    return await appliedMigrations.get(store)!;
  } finally {
    await store.close();
  }
}
