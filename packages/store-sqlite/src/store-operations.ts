import type { ArchiveSearchHit, CompactionRecord, JSONObject, SessionUsage } from '@compaction/core';
import { type ArchiveSearchPlan, mergeSessionMetadata } from '@compaction/core/stores';
import { SqliteStoreError } from './errors/sqlite-store-error.js';
import { schemaMigrations, schemaVersion } from './schema.js';
import { searchArchivedItems } from './search-archived-items.js';
import { type Database, inTransaction } from './sqlite-connection.js';

type Row = Record<string, unknown>;

/**
 * Creates the tables of a new file, brings an older file's schema up to this version's, or checks that an
 * existing file's schema is one this version reads.
 */
export function openDatabase(database: Database, path: string): void {
  const version = userVersion(database);
  if (version > schemaVersion)
    throw new SqliteStoreError({
      reason: 'newer-schema',
      path,
      message: `${path} was written by a newer version of @compaction/store-sqlite (schema ${version}; this version reads up to ${schemaVersion})`,
    });
  if (version < schemaVersion)
    inTransaction(database, () => {
      // Read again inside the transaction: what this file needs is decided by what it has when written.
      const from = userVersion(database);
      for (const migration of schemaMigrations) {
        if (migration.version <= from) continue;
        for (const statement of migration.statements) database.exec(statement);
      }
      database.exec(`PRAGMA user_version = ${schemaVersion}`);
    });
}

function userVersion(database: Database): number {
  return Number((database.get('PRAGMA user_version') as Row | null)?.user_version ?? 0);
}

/**
 * What each store call does in SQLite, synchronously, with the lock already held. The store runs these in
 * its worker thread; the first argument is always the database.
 */
export const storeOperations = {
  append(database: Database, record: CompactionRecord): void {
    const { event } = record;
    inTransaction(database, () =>
      database.run(
        `INSERT INTO compactions
           (event_id, session_id, round, started_at, event, removed_messages, archived, recorded_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          event.id,
          event.sessionId,
          event.round,
          event.startedAt,
          JSON.stringify(event),
          JSON.stringify(record.removedMessages),
          record.archived === undefined ? null : JSON.stringify(record.archived),
          new Date().toISOString(),
        ],
      ),
    );
  },

  list(database: Database, sessionId: string): CompactionRecord[] {
    const rows = database.all(
      'SELECT event, removed_messages, archived FROM compactions WHERE session_id = ? ORDER BY sequence',
      [sessionId],
    ) as Row[];
    return rows.map((row) => ({
      event: JSON.parse(String(row.event)),
      removedMessages: JSON.parse(String(row.removed_messages)),
      ...(row.archived === null ? {} : { archived: JSON.parse(String(row.archived)) }),
    }));
  },

  sessions(database: Database): string[] {
    const rows = database.all(
      'SELECT session_id FROM compactions UNION SELECT session_id FROM sessions ORDER BY session_id',
    ) as Row[];
    return rows.map((row) => String(row.session_id));
  },

  getSessionMetadata(database: Database, sessionId: string): JSONObject | undefined {
    const row = database.get('SELECT metadata FROM sessions WHERE session_id = ?', [sessionId]) as Row | null;
    return row === null ? undefined : (JSON.parse(String(row.metadata)) as JSONObject);
  },

  /** Reads and writes in one transaction, so concurrent updates from other processes are not lost. */
  updateSessionMetadata(database: Database, sessionId: string, metadata: JSONObject): JSONObject {
    return inTransaction(database, () => {
      const merged = mergeSessionMetadata(storeOperations.getSessionMetadata(database, sessionId), metadata);
      database.run(
        `INSERT INTO sessions (session_id, metadata, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (session_id) DO UPDATE SET metadata = excluded.metadata, updated_at = excluded.updated_at`,
        [sessionId, JSON.stringify(merged), new Date().toISOString()],
      );
      return merged;
    });
  },

  /**
   * Both tables in one transaction: a session's records and its metadata go together or not at all (and
   * with the records, by trigger, their entries in the search index).
   */
  deleteSession(database: Database, sessionId: string): void {
    inTransaction(database, () => {
      database.run('DELETE FROM compactions WHERE session_id = ?', [sessionId]);
      database.run('DELETE FROM sessions WHERE session_id = ?', [sessionId]);
    });
  },

  /** A query already checked on the calling thread, where its typed error can be thrown. */
  searchArchived(database: Database, plan: ArchiveSearchPlan): ArchiveSearchHit[] {
    return searchArchivedItems(database, plan);
  },

  sessionUsage(database: Database): SessionUsage[] {
    // Sizes in bytes of the UTF-8 text (a BLOB's length), not characters.
    const rows = database.all(
      `SELECT session_id, max(at) AS last_activity_at, sum(bytes) AS bytes FROM (
         SELECT session_id, coalesce(recorded_at, started_at) AS at,
           length(CAST(event AS BLOB)) + length(CAST(removed_messages AS BLOB))
             + coalesce(length(CAST(archived AS BLOB)), 0) AS bytes
         FROM compactions
         UNION ALL
         SELECT session_id, updated_at, length(CAST(metadata AS BLOB)) FROM sessions
       ) GROUP BY session_id ORDER BY session_id`,
    ) as Row[];
    return rows.map((row) => ({
      sessionId: String(row.session_id),
      lastActivityAt: String(row.last_activity_at),
      bytes: Number(row.bytes),
    }));
  },
};

/** The name of a store call. */
export type StoreOperation = keyof typeof storeOperations;

/** The arguments of a store call after the database. */
export type StoreArguments<Operation extends StoreOperation> =
  Parameters<(typeof storeOperations)[Operation]> extends [Database, ...infer Rest] ? Rest : never;

/** The value a store call returns. */
export type StoreResult<Operation extends StoreOperation> = ReturnType<(typeof storeOperations)[Operation]>;
