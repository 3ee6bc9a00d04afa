import type { CompactionRecord, JSONObject, SessionUsage } from '@compaction/core';
import { mergeSessionMetadata } from '@compaction/core/stores';
import { indexedItems, insertItemsStatement, itemColumns } from './archived-items.js';

/** A pool or one connection: what a query runs on. */
export interface Queryable {
  query<Row extends object>(text: string, values?: unknown[]): Promise<{ rows: Row[] }>;
}

/**
 * What each store call does in SQL. Values are kept as JSON text rather than `jsonb`, so a message reads back
 * exactly as written (`jsonb` reorders keys and refuses `\u0000` in strings).
 */
export const storeQueries = {
  /**
   * A record whose event id is already stored is left as it is: a retried append writes nothing. The record
   * and its entries in the archive search are written by one statement, so together or not at all.
   */
  async append(client: Queryable, record: CompactionRecord): Promise<void> {
    const { event } = record;
    await client.query(
      `WITH record AS (
         INSERT INTO compaction_records
           (event_id, session_id, round, started_at, event, removed_messages, archived)
         VALUES ($5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (event_id) DO NOTHING
         RETURNING sequence, session_id, round, started_at
       )
       ${insertItemsStatement}`,
      [
        ...itemColumns(indexedItems(record.archived ?? [])),
        event.id,
        event.sessionId,
        event.round,
        event.startedAt,
        JSON.stringify(event),
        JSON.stringify(record.removedMessages),
        record.archived === undefined ? null : JSON.stringify(record.archived),
      ],
    );
  },

  async list(client: Queryable, sessionId: string): Promise<CompactionRecord[]> {
    const { rows } = await client.query<{ event: string; removed_messages: string; archived: string | null }>(
      'SELECT event, removed_messages, archived FROM compaction_records WHERE session_id = $1 ORDER BY sequence',
      [sessionId],
    );
    return rows.map((row) => ({
      event: JSON.parse(row.event),
      removedMessages: JSON.parse(row.removed_messages),
      ...(row.archived === null ? {} : { archived: JSON.parse(row.archived) }),
    }));
  },

  async sessions(client: Queryable): Promise<string[]> {
    // Byte order, as JavaScript's sort of ASCII ids, whatever the database's collation.
    const { rows } = await client.query<{ session_id: string }>(
      `SELECT session_id FROM
         (SELECT session_id FROM compaction_records UNION SELECT session_id FROM compaction_sessions) AS known
       ORDER BY session_id COLLATE "C"`,
    );
    return rows.map((row) => row.session_id);
  },

  async getSessionMetadata(client: Queryable, sessionId: string): Promise<JSONObject | undefined> {
    const { rows } = await client.query<{ metadata: string }>(
      'SELECT metadata FROM compaction_sessions WHERE session_id = $1',
      [sessionId],
    );
    return rows[0] === undefined ? undefined : (JSON.parse(rows[0].metadata) as JSONObject);
  },

  /** Must run in a transaction: the row stays locked from the read to the write, so no update is lost. */
  async updateSessionMetadata(
    client: Queryable,
    sessionId: string,
    metadata: JSONObject,
  ): Promise<JSONObject> {
    // Creates the row or locks the existing one, and reads it, in one statement.
    const { rows } = await client.query<{ metadata: string }>(
      `INSERT INTO compaction_sessions (session_id, metadata) VALUES ($1, '{}')
       ON CONFLICT (session_id) DO UPDATE SET session_id = excluded.session_id
       RETURNING metadata`,
      [sessionId],
    );
    const text = JSON.stringify(mergeSessionMetadata(JSON.parse(rows[0]!.metadata) as JSONObject, metadata));
    await client.query(
      'UPDATE compaction_sessions SET metadata = $2, updated_at = now() WHERE session_id = $1',
      [sessionId, text],
    );
    // A copy: later edits of the caller's values change nothing here.
    return JSON.parse(text) as JSONObject;
  },

  /** Must run in a transaction, so the records and the metadata go together or not at all. */
  async deleteSession(client: Queryable, sessionId: string): Promise<void> {
    await client.query('DELETE FROM compaction_records WHERE session_id = $1', [sessionId]);
    await client.query('DELETE FROM compaction_sessions WHERE session_id = $1', [sessionId]);
  },

  async sessionUsage(client: Queryable): Promise<SessionUsage[]> {
    const { rows } = await client.query<{ session_id: string; last_activity_at: Date; bytes: string }>(
      `SELECT session_id, max(at) AS last_activity_at, sum(bytes)::text AS bytes FROM (
         SELECT session_id, recorded_at AS at,
           octet_length(event) + octet_length(removed_messages) + coalesce(octet_length(archived), 0) AS bytes
         FROM compaction_records
         UNION ALL
         SELECT session_id, updated_at, octet_length(metadata) FROM compaction_sessions
       ) AS usage GROUP BY session_id ORDER BY session_id COLLATE "C"`,
    );
    return rows.map((row) => ({
      sessionId: row.session_id,
      lastActivityAt: new Date(row.last_activity_at).toISOString(),
      bytes: Number(row.bytes),
    }));
  },
};
