/** The schema, applied when a store opens a file; `user_version` records which version a file has. */
export const schemaVersion = 1;

export const schemaStatements = [
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
  `PRAGMA user_version = ${schemaVersion}`,
];
