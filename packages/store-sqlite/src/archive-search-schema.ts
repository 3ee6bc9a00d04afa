/**
 * Schema version 4: the full-text index of archived items, kept by triggers on `compactions`, so every append
 * and delete updates it in its own transaction, whichever process and version of this package writes.
 *
 * `archived_items` has one row per handle and session, its newest record's (`position` is the item's index
 * in that record's `archived`); `archived_text` indexes its text under the same rowid. The FTS5 `trigram`
 * tokenizer finds any run of three or more characters in any script, also inside a word and in Chinese or
 * Japanese, which have no spaces between words (the `unicode61` tokenizer would take a whole sentence of them
 * as one word); shorter words are checked on the text itself. The index keeps no copy of the text
 * (`content=''`), and `secure-delete` removes a deleted item's entries at once instead of at the next merge.
 */
export const archiveSearchStatements: readonly string[] = [
  `CREATE TABLE archived_items (
     item_id INTEGER PRIMARY KEY,
     session_id TEXT NOT NULL,
     handle TEXT NOT NULL,
     label TEXT NOT NULL,
     sequence INTEGER NOT NULL,
     position INTEGER NOT NULL,
     round INTEGER NOT NULL,
     archived_at TEXT NOT NULL,
     UNIQUE (session_id, handle)
   )`,
  'CREATE INDEX archived_items_by_record ON archived_items (sequence)',
  `CREATE VIRTUAL TABLE archived_text USING fts5(
     text, content='', contentless_delete=1, tokenize='trigram case_sensitive 0'
   )`,
  `INSERT INTO archived_text (archived_text, rank) VALUES ('secure-delete', 1)`,
  `CREATE TRIGGER compactions_index_archived AFTER INSERT ON compactions WHEN new.archived IS NOT NULL
   BEGIN
     DELETE FROM archived_text WHERE rowid IN (
       SELECT item_id FROM archived_items
       WHERE session_id = new.session_id
         AND handle IN (SELECT json_extract(value, '$.handle') FROM json_each(new.archived))
     );
     INSERT INTO archived_items (session_id, handle, label, sequence, position, round, archived_at)
       SELECT new.session_id, json_extract(value, '$.handle'), json_extract(value, '$.label'), new.sequence,
         key, new.round, new.started_at
       FROM json_each(new.archived) WHERE true ORDER BY key
       ON CONFLICT (session_id, handle) DO UPDATE SET label = excluded.label, sequence = excluded.sequence,
         position = excluded.position, round = excluded.round, archived_at = excluded.archived_at;
     INSERT INTO archived_text (rowid, text)
       SELECT item_id, json_extract(new.archived, '$[' || position || '].text')
       FROM archived_items WHERE sequence = new.sequence;
   END`,
  `CREATE TRIGGER compactions_unindex_archived AFTER DELETE ON compactions WHEN old.archived IS NOT NULL
   BEGIN
     DELETE FROM archived_text WHERE rowid IN (SELECT item_id FROM archived_items WHERE sequence = old.sequence);
     DELETE FROM archived_items WHERE sequence = old.sequence;
   END`,
  // What was archived before this version, record by record as if appended again.
  `INSERT INTO archived_items (session_id, handle, label, sequence, position, round, archived_at)
     SELECT session_id, json_extract(value, '$.handle'), json_extract(value, '$.label'), sequence, key, round,
       started_at
     FROM compactions, json_each(compactions.archived) WHERE compactions.archived IS NOT NULL
     ORDER BY sequence, key
     ON CONFLICT (session_id, handle) DO UPDATE SET label = excluded.label, sequence = excluded.sequence,
       position = excluded.position, round = excluded.round, archived_at = excluded.archived_at`,
  `INSERT INTO archived_text (rowid, text)
     SELECT item_id, json_extract(compactions.archived, '$[' || position || '].text')
     FROM archived_items JOIN compactions USING (sequence)`,
];
