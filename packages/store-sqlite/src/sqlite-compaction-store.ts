import { rmSync, statSync } from 'node:fs';
import {
  type CompactionRecord,
  type CompactionStore,
  type JSONObject,
  mergeMetadata,
} from '@compaction/core';
import sqlite from 'node-sqlite3-wasm';
import { schemaStatements, schemaVersion } from './schema.js';

/** Settings of {@link createSqliteCompactionStore}. */
export interface SqliteCompactionStoreSettings {
  /** Path of the database file; created when missing. */
  path: string;
  /**
   * How long a write waits for another process that holds the file's lock before failing, in milliseconds.
   * Default 5,000.
   */
  busyTimeoutMs?: number;
  /**
   * A lock older than this, in milliseconds, was left by a process that died mid-transaction and is
   * removed. Transactions here last milliseconds, so the default, 30,000, is far beyond any live one.
   */
  staleLockMs?: number;
}

type Row = Record<string, unknown>;

/**
 * A {@link CompactionStore} in one SQLite file: every compaction event, the messages it removed, and
 * per-session metadata, kept across restarts. SQLite runs as WebAssembly (`node-sqlite3-wasm`) with real
 * file I/O and file locking, so nothing is compiled or downloaded at install. Node only.
 */
export class SqliteCompactionStore implements CompactionStore {
  private readonly database: InstanceType<typeof sqlite.Database>;
  private readonly busyTimeoutMs: number;
  private readonly staleLockMs: number;
  private readonly lockPath: string;

  constructor(settings: SqliteCompactionStoreSettings) {
    this.busyTimeoutMs = settings.busyTimeoutMs ?? 5000;
    this.staleLockMs = settings.staleLockMs ?? 30_000;
    // node-sqlite3-wasm locks a database file by creating this directory beside it.
    this.lockPath = `${settings.path}.lock`;
    this.database = new sqlite.Database(settings.path);
    const version = Number(
      this.retry(() => this.database.get('PRAGMA user_version') as Row | null)?.user_version ?? 0,
    );
    if (version > schemaVersion) {
      this.database.close();
      throw new Error(
        `${settings.path} was written by a newer version (schema ${version} > ${schemaVersion})`,
      );
    }
    this.write(() => {
      for (const statement of schemaStatements) this.database.exec(statement);
    });
  }

  async append(record: CompactionRecord): Promise<void> {
    const { event } = record;
    this.write(() =>
      this.database.run(
        `INSERT INTO compactions (event_id, session_id, round, started_at, event, removed_messages)
         VALUES (?, ?, ?, ?, ?, ?)`,
        [
          event.id,
          event.sessionId,
          event.round,
          event.startedAt,
          JSON.stringify(event),
          JSON.stringify(record.removedMessages),
        ],
      ),
    );
  }

  async list(sessionId: string): Promise<CompactionRecord[]> {
    const rows = this.retry(
      () =>
        this.database.all(
          'SELECT event, removed_messages FROM compactions WHERE session_id = ? ORDER BY sequence',
          [sessionId],
        ) as Row[],
    );
    return rows.map((row) => ({
      event: JSON.parse(String(row.event)),
      removedMessages: JSON.parse(String(row.removed_messages)),
    }));
  }

  async sessions(): Promise<string[]> {
    const rows = this.retry(
      () =>
        this.database.all(
          'SELECT session_id FROM compactions UNION SELECT session_id FROM sessions ORDER BY session_id',
        ) as Row[],
    );
    return rows.map((row) => String(row.session_id));
  }

  async getSessionMetadata(sessionId: string): Promise<JSONObject | undefined> {
    const row = this.retry(
      () =>
        this.database.get('SELECT metadata FROM sessions WHERE session_id = ?', [sessionId]) as Row | null,
    );
    return row === null ? undefined : (JSON.parse(String(row.metadata)) as JSONObject);
  }

  async updateSessionMetadata(sessionId: string, metadata: JSONObject): Promise<JSONObject> {
    // Read and write in one transaction so concurrent updates from other processes are not lost.
    return this.write(() => {
      const row = this.database.get('SELECT metadata FROM sessions WHERE session_id = ?', [
        sessionId,
      ]) as Row | null;
      const merged = mergeMetadata(
        row === null ? undefined : (JSON.parse(String(row.metadata)) as JSONObject),
        metadata,
      );
      this.database.run(
        `INSERT INTO sessions (session_id, metadata, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (session_id) DO UPDATE SET metadata = excluded.metadata, updated_at = excluded.updated_at`,
        [sessionId, JSON.stringify(merged), new Date().toISOString()],
      );
      return merged;
    });
  }

  async close(): Promise<void> {
    if (this.database.isOpen) this.database.close();
  }

  /** Runs `work` in an immediate transaction, retrying while another process holds the file's lock. */
  private write<T>(work: () => T): T {
    return this.retry(() => {
      this.database.exec('BEGIN IMMEDIATE');
      try {
        const result = work();
        this.database.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.database.inTransaction) this.database.exec('ROLLBACK');
        throw error;
      }
    });
  }

  /**
   * Runs `work`, retrying while the file is locked by another process (readers need the lock too), and
   * clearing a lock left behind by a process that died. The calls are synchronous, so work from this
   * process never interleaves.
   */
  private retry<T>(work: () => T): T {
    if (!this.database.isOpen) throw new Error('the compaction store is closed');
    const deadline = Date.now() + this.busyTimeoutMs;
    for (;;) {
      try {
        return work();
      } catch (error) {
        if (!isBusy(error)) throw error;
        this.removeStaleLock();
        if (Date.now() >= deadline) throw error;
        sleep(5 + Math.random() * 10);
      }
    }
  }

  private removeStaleLock(): void {
    try {
      if (Date.now() - statSync(this.lockPath).mtimeMs > this.staleLockMs)
        rmSync(this.lockPath, { recursive: true });
    } catch {
      // The lock was released meanwhile.
    }
  }
}

/** Opens (or creates) a SQLite compaction store. */
export function createSqliteCompactionStore(settings: SqliteCompactionStoreSettings): SqliteCompactionStore {
  return new SqliteCompactionStore(settings);
}

function isBusy(error: unknown): boolean {
  return error instanceof Error && /busy|locked/i.test(error.message);
}

const pause = new Int32Array(new SharedArrayBuffer(4));
/** Blocks the thread briefly; the store's API is synchronous underneath, so a busy wait must be too. */
function sleep(milliseconds: number): void {
  Atomics.wait(pause, 0, 0, milliseconds);
}
