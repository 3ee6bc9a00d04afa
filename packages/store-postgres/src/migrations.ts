import type { PoolClient } from 'pg';
import { archiveSearchStatements, indexArchivedRecords } from './archive-search-migration.js';
import { PostgresStoreError } from './errors/postgres-store-error.js';

/** One step of the schema; applied once, in order, each in the transaction that records it. */
interface Migration {
  version: number;
  name: string;
  statements: string[];
  /** What cannot be said in SQL alone, run after the statements in the same transaction. */
  run?: (client: PoolClient) => Promise<void>;
}

/** Every version of the schema, oldest first. Never edit one that shipped: add the next. */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'compactions and sessions',
    statements: [
      `CREATE TABLE compaction_records (
         sequence BIGSERIAL PRIMARY KEY,
         event_id TEXT NOT NULL UNIQUE,
         session_id TEXT NOT NULL,
         round INTEGER NOT NULL,
         started_at TEXT NOT NULL,
         event TEXT NOT NULL,
         removed_messages TEXT NOT NULL,
         recorded_at TIMESTAMPTZ NOT NULL DEFAULT now()
       )`,
      'CREATE INDEX compaction_records_by_session ON compaction_records (session_id, sequence)',
      `CREATE TABLE compaction_sessions (
         session_id TEXT PRIMARY KEY,
         metadata TEXT NOT NULL,
         updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
       )`,
    ],
  },
  {
    version: 2,
    name: 'archived text for recall',
    // What a compaction archived, as JSON text; NULL for records without (all of those before). Nullable, so
    // instances of the version before that are still running keep appending.
    statements: ['ALTER TABLE compaction_records ADD COLUMN archived TEXT'],
  },
  {
    version: 3,
    name: 'archive search',
    statements: [...archiveSearchStatements],
    // What was archived before, indexed as if appended again (its JSON is read in JavaScript, which takes
    // every string JSON.stringify writes, where PostgreSQL refuses `\u0000` and lone surrogates).
    run: indexArchivedRecords,
  },
];

/** The newest schema version this package reads and writes. */
export const schemaVersion = migrations.at(-1)!.version;

/**
 * A fixed advisory lock key: processes starting together apply migrations one after another, and the later
 * ones find nothing left to do.
 */
const migrationLockKey = 0x636f6d70_6d696772n;

/**
 * Applies the migrations the database lacks, in one transaction, and returns the versions applied. Refuses a
 * database whose schema is newer than this package's.
 */
export async function applyMigrations(client: PoolClient, database: string): Promise<number[]> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [migrationLockKey.toString()]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS compaction_schema_migrations (
         version INTEGER PRIMARY KEY,
         name TEXT NOT NULL,
         applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await client.query<{ version: number | null }>(
      'SELECT max(version) AS version FROM compaction_schema_migrations',
    );
    const current = rows[0]?.version ?? 0;
    if (current > schemaVersion) {
      throw new PostgresStoreError({
        reason: 'newer-schema',
        database,
        message: `${database} has schema ${current}, written by a newer version of @compaction/store-postgres (this version reads up to ${schemaVersion})`,
      });
    }
    const applied: number[] = [];
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      for (const statement of migration.statements) await client.query(statement);
      await migration.run?.(client);
      await client.query('INSERT INTO compaction_schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    await client.query('COMMIT');
    return applied;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
