import { resolve } from 'node:path';
import type { Worker } from 'node:worker_threads';
import type {
  ArchiveSearchHit,
  ArchiveSearchQuery,
  CompactionRecord,
  CompactionStore,
  JSONObject,
  SessionUsage,
} from '@compaction/core';
import { planArchiveSearch } from '@compaction/core/stores';
import { SqliteStoreError } from './errors/sqlite-store-error.js';
import { startDatabaseWorker } from './start-database-worker.js';
import type { StoreArguments, StoreOperation, StoreResult } from './store-operations.js';
import { receiveError, type WorkerRequest, type WorkerResponse } from './worker-protocol.js';

/** Settings of {@link createSqliteCompactionStore}. */
export interface SqliteCompactionStoreSettings {
  /** Path of the database file; created when missing. */
  path: string;
  /**
   * How long a call waits, in milliseconds, while a running process holds the file's lock, before it fails
   * with a `locked` {@link SqliteStoreError}. The wait never blocks the event loop. Default 5,000.
   */
  busyTimeoutMs?: number;
  /**
   * A lock whose holder cannot be checked (a process on another host, or a system without `/proc`, where a
   * process id may have been reused) is taken over when it is older than this, in milliseconds. A lock whose
   * holder is known to be gone is taken over at once. Calls hold the lock for milliseconds, so the default,
   * 30,000, is far beyond any live one.
   */
  staleLockMs?: number;
}

interface PendingCall {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * A {@link CompactionStore} in one SQLite file: every compaction event, the messages it removed, and
 * per-session metadata, kept across restarts. SQLite runs as WebAssembly (`node-sqlite3-wasm`) in a worker
 * thread, so waiting for another process's lock, file I/O and `fsync` never block the caller's event loop.
 * Node only.
 */
export class SqliteCompactionStore implements CompactionStore {
  /** The database file, as an absolute path. */
  readonly path: string;
  private readonly worker: Worker;
  private readonly pending = new Map<number, PendingCall>();
  private readonly opening: Promise<void>;
  private nextId = 0;
  private closing: Promise<void> | undefined;
  /** Set when the worker stopped on its own: every later call fails with it. */
  private failure: SqliteStoreError | undefined;

  constructor(settings: SqliteCompactionStoreSettings) {
    this.path = resolve(settings.path);
    this.worker = startDatabaseWorker({
      path: this.path,
      busyTimeoutMs: settings.busyTimeoutMs ?? 5000,
      staleLockMs: settings.staleLockMs ?? 30_000,
    });
    // Only calls under way keep the process alive, not an idle store the application forgot to close.
    this.worker.unref();
    this.worker.on('message', (response: WorkerResponse) => this.settle(response));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', () => this.fail(undefined));
    this.opening = this.send({ id: this.nextId++, operation: 'open' }).then(() => undefined);
    // An open failure is reported by `opened()` and by the next call (which tries again), never unhandled.
    this.opening.catch(() => {});
  }

  /**
   * Resolves once the file is open with its tables in place; rejects with a {@link SqliteStoreError} when
   * it cannot be (a file of a newer version, a directory that does not exist, a lock held all along).
   */
  opened(): Promise<void> {
    return this.opening;
  }

  async append(record: CompactionRecord): Promise<void> {
    await this.call('append', [record]);
  }

  list(sessionId: string): Promise<CompactionRecord[]> {
    return this.call('list', [sessionId]);
  }

  sessions(): Promise<string[]> {
    return this.call('sessions', []);
  }

  getSessionMetadata(sessionId: string): Promise<JSONObject | undefined> {
    return this.call('getSessionMetadata', [sessionId]);
  }

  updateSessionMetadata(sessionId: string, metadata: JSONObject): Promise<JSONObject> {
    return this.call('updateSessionMetadata', [sessionId, metadata]);
  }

  /**
   * Deletes the session's records, what they removed and archived, and its metadata, in one transaction. The
   * file overwrites what it frees (`secure_delete`), so the deleted text is not left in its free pages.
   */
  async deleteSession(sessionId: string): Promise<void> {
    await this.call('deleteSession', [sessionId]);
  }

  /**
   * Full-text search over what the records archived, through the file's FTS5 index (see the README): ranked
   * by bm25, equal matches newest first. Rejects a query that cannot run with `InvalidSearchQueryError`.
   */
  async searchArchived(query: ArchiveSearchQuery): Promise<ArchiveSearchHit[]> {
    return this.call('searchArchived', [planArchiveSearch(query)]);
  }

  sessionUsage(): Promise<SessionUsage[]> {
    return this.call('sessionUsage', []);
  }

  /** Lets the calls already made finish, then closes the file and ends the worker. Later calls fail. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.failure === undefined) {
        const exited = new Promise((resolve) => this.worker.once('exit', resolve));
        await this.send({ id: this.nextId++, operation: 'close' }).catch(() => {});
        // The database is closed and no call is left, so ending the thread loses nothing; left to end by
        // itself, it lingers for about half a second.
        await this.worker.terminate();
        await exited;
      }
    })();
    return this.closing;
  }

  private call<Operation extends StoreOperation>(
    operation: Operation,
    parameters: StoreArguments<Operation>,
  ): Promise<StoreResult<Operation>> {
    if (this.closing !== undefined)
      return Promise.reject(
        new SqliteStoreError({
          reason: 'closed',
          path: this.path,
          message: `The store of ${this.path} is closed`,
        }),
      );
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const request = { id: this.nextId++, operation, arguments: parameters } as unknown as WorkerRequest;
    return this.send(request) as Promise<StoreResult<Operation>>;
  }

  private send(request: WorkerRequest): Promise<unknown> {
    return new Promise((resolve, reject) => {
      try {
        this.worker.postMessage(request);
      } catch (error) {
        // Values that cannot be copied to another thread (functions, for one) are not JSON either.
        const message = `A ${request.operation} call on ${this.path} holds a value that cannot be stored`;
        reject(new SqliteStoreError({ reason: 'failed', path: this.path, message, cause: error }));
        return;
      }
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(request.id, { resolve, reject });
    });
  }

  private settle(response: WorkerResponse): void {
    const call = this.pending.get(response.id);
    if (call === undefined) return;
    this.pending.delete(response.id);
    if (this.pending.size === 0) this.worker.unref();
    if ('error' in response) call.reject(receiveError(response.error, this.path));
    else call.resolve(response.value);
  }

  /** The worker stopped (a crash, or the end of `close`): calls still waiting cannot be answered any more. */
  private fail(cause: unknown): void {
    if (this.pending.size === 0 && this.closing !== undefined) return;
    this.failure ??= new SqliteStoreError({
      reason: 'failed',
      path: this.path,
      message: `The SQLite worker of ${this.path} stopped${cause instanceof Error ? `: ${cause.message}` : ''}`,
      cause,
    });
    for (const call of this.pending.values()) call.reject(this.failure);
    this.pending.clear();
  }
}

/**
 * Opens (or creates) a SQLite compaction store. The file is opened in the background; the first call waits
 * for it. Use {@link openSqliteCompactionStore} to learn at start-up that the file cannot be used.
 */
export function createSqliteCompactionStore(settings: SqliteCompactionStoreSettings): SqliteCompactionStore {
  return new SqliteCompactionStore(settings);
}

/**
 * Opens (or creates) a SQLite compaction store and waits until it is usable; rejects with a
 * {@link SqliteStoreError} (and closes the store) when it is not.
 */
export async function openSqliteCompactionStore(
  settings: SqliteCompactionStoreSettings,
): Promise<SqliteCompactionStore> {
  const store = new SqliteCompactionStore(settings);
  try {
    await store.opened();
    return store;
  } catch (error) {
    await store.close();
    throw error;
  }
}
