import { indexedItems, insertItemsStatement, itemColumns } from './archived-items.js';
import type { Queryable } from './store-queries.js';

/**
 * Schema version 3: `compaction_archived_items`, one row per session and handle: where its newest record keeps
 * the item, and the item's text case-folded (`folded`: `lower` under the `und-x-icu` collation, Unicode's case
 * mapping whatever the database's locale), which search matches. Written by `append` in the statement that
 * inserts the record, deleted with the record (`ON DELETE CASCADE`), so a deleted session leaves nothing in it.
 * Where `pg_trgm` can be installed (contrib; trusted, so a database owner may), a GIN trigram index on `folded`
 * finds the candidates. A `tsvector` is not used: its parsers take a Chinese or Japanese sentence as one word, and a word
 * inside a longer one (`config` in `parseConfig`) is never found.
 */
export const archiveSearchStatements: readonly string[] = [
  `CREATE TABLE compaction_archived_items (
     session_id TEXT NOT NULL,
     handle TEXT NOT NULL,
     label TEXT NOT NULL,
     sequence BIGINT NOT NULL REFERENCES compaction_records (sequence) ON DELETE CASCADE,
     position INTEGER NOT NULL,
     round INTEGER NOT NULL,
     archived_at TEXT NOT NULL,
     folded TEXT NOT NULL,
     PRIMARY KEY (session_id, handle)
   )`,
  'CREATE INDEX compaction_archived_items_by_record ON compaction_archived_items (sequence)',
  `DO $$
   BEGIN
     IF EXISTS (SELECT FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
       BEGIN
         CREATE EXTENSION IF NOT EXISTS pg_trgm;
       EXCEPTION WHEN insufficient_privilege THEN
         RAISE NOTICE 'pg_trgm could not be installed: archive search reads every item of the sessions searched';
       END;
     END IF;
     IF EXISTS (SELECT FROM pg_extension WHERE extname = 'pg_trgm') THEN
       EXECUTE format(
         'CREATE INDEX compaction_archived_items_folded ON compaction_archived_items
            USING gin (folded %I.gin_trgm_ops)',
         (SELECT nspname FROM pg_extension JOIN pg_namespace ON pg_namespace.oid = extnamespace
          WHERE extname = 'pg_trgm'));
     END IF;
   END $$`,
];

/** Indexes what records archived before version 3, a batch of records at a time, oldest first. */
export async function indexArchivedRecords(client: Queryable): Promise<void> {
  const batch = 200;
  for (let after = '0'; ; ) {
    const { rows } = await client.query<{ sequence: string; archived: string }>(
      `SELECT sequence::text, archived FROM compaction_records
       WHERE archived IS NOT NULL AND sequence > $1::bigint ORDER BY sequence LIMIT ${batch}`,
      [after],
    );
    for (const row of rows) {
      const columns = itemColumns(indexedItems(JSON.parse(row.archived)));
      await client.query(
        `WITH record AS (SELECT sequence, session_id, round, started_at FROM compaction_records
                         WHERE sequence = $5::bigint)
         ${insertItemsStatement}`,
        [...columns, row.sequence],
      );
    }
    if (rows.length < batch) return;
    after = rows.at(-1)!.sequence;
  }
}
