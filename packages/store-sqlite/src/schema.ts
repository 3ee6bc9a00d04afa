import { archiveSearchStatements } from './archive-search-schema.js';

/** One version of the schema: the statements that bring a file from the version before to this one. */
interface SchemaMigration {
  version: number;
  statements: string[];
}

/**
 * Every version of the schema, oldest first; `user_version` records which one a file has, and opening a file
 * applies the versions after it. Never edit one that shipped: add the next.
 */
export const schemaMigrations: readonly SchemaMigration[] = [
  {
    version: 1,
    statements: [
      `CREATE TABLE IF NOT EXISTS compactions (
         sequence INTEGER PRIMARY KEY AUTOINCREMENT,
         event_id TEXT NOT NULL UNIQUE,
         session_id TEXT NOT NULL,
         round INTEGER NOT NULL,
         started_at TEXT NOT NULL,
         event TEXT NOT NULL,
         removed_messages TEXT NOT NULL
       )`,
      'CREATE INDEX IF NOT EXISTS compactions_by_session ON compactions (session_id, sequence)',
      `CREATE TABLE IF NOT EXISTS sessions (
         session_id TEXT PRIMARY KEY,
         metadata TEXT NOT NULL,
         updated_at TEXT NOT NULL
       )`,
    ],
  },
  {
    version: 2,
    // What a compaction archived for recall, as JSON; NULL for records without (all of those before).
    // Nullable, so a process of the version before that still has the file open keeps writing.
    statements: ['ALTER TABLE compactions ADD COLUMN archived TEXT'],
  },
  {
    version: 3,
    // When a record was appended, for retention by last activity; NULL for records before (their event's
    // start time stands in) and for those a process of the version before still appends.
    statements: ['ALTER TABLE compactions ADD COLUMN recorded_at TEXT'],
  },
  { version: 4, statements: [...archiveSearchStatements] },
];

/** The newest schema version this package reads and writes. */
export const schemaVersion = schemaMigrations.at(-1)!.version;
