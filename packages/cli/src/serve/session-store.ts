import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { CompactionStore } from '@compaction/core';
// The store's own redaction (passwords in the user part and in the query), without loading the driver.
import { redactConnectionString } from '@compaction/store-postgres/redact-connection-string';
import { CliError } from '../errors/cli-error.js';
import { writeFileAtomically } from '../output/write-file-atomically.js';

/** The folder, in the working folder, where `compaction serve` keeps its sessions when `--store` is not given. */
export const defaultStoreFolder = '.compaction';

/** The SQLite file of the default store, in {@link defaultStoreFolder}. */
export const defaultStoreFile = 'sessions.sqlite';

/** Where `compaction serve` keeps its sessions: a SQLite file, a PostgreSQL database, or memory only. */
export type StoreLocation =
  | { kind: 'memory' }
  | { kind: 'sqlite'; path: string; defaulted: boolean }
  | { kind: 'postgres'; connectionString: string };

/** How a PostgreSQL store is run; defaults in `@compaction/store-postgres`. */
export interface PostgresStoreOptions {
  poolSize?: number;
  lockTimeoutMs?: number;
}

/**
 * Reads `--store`: `memory`, a `postgres://` or `postgresql://` connection string, a file path, or nothing for
 * `.compaction/sessions.sqlite` in `directory`.
 */
export function storeLocationOf(flag: string | undefined, directory: string): StoreLocation {
  if (flag === 'memory') return { kind: 'memory' };
  if (flag !== undefined && /^postgres(ql)?:\/\//i.test(flag))
    return { kind: 'postgres', connectionString: flag };
  if (flag === undefined) {
    return { kind: 'sqlite', path: join(directory, defaultStoreFolder, defaultStoreFile), defaulted: true };
  }
  return { kind: 'sqlite', path: resolve(directory, flag), defaulted: false };
}

/** How the start-up line names the store: a path relative to the working folder when inside it. */
export function describeStoreLocation(location: StoreLocation, directory: string): string {
  if (location.kind === 'memory') return 'sessions in memory only';
  if (location.kind === 'postgres')
    return `sessions in PostgreSQL ${redactConnectionString(location.connectionString)}`;
  const shown = relative(directory, location.path);
  return `sessions in ${shown.startsWith('..') || shown === '' ? location.path : shown}`;
}

/**
 * Opens the store: none for memory, otherwise `@compaction/store-sqlite` on the file, created when missing.
 * The default folder is created with a `.gitignore` that ignores it, so sessions are never committed by
 * accident. A file that cannot be opened stops the start with one line that names it.
 */
export async function openSessionStore(
  location: StoreLocation,
  postgres: PostgresStoreOptions = {},
): Promise<CompactionStore | undefined> {
  if (location.kind === 'memory') return undefined;
  if (location.kind === 'postgres') return openPostgresStore(location.connectionString, postgres);
  const folder = dirname(location.path);
  try {
    if (location.defaulted && !existsSync(folder)) {
      mkdirSync(folder, { recursive: true });
      await writeFileAtomically(join(folder, '.gitignore'), '# Sessions of compaction serve\n*\n');
    }
    if (!existsSync(folder)) throw new Error(`the folder ${folder} does not exist`);
    const { createSqliteCompactionStore } = await import('@compaction/store-sqlite');
    return createSqliteCompactionStore({ path: location.path });
  } catch (error) {
    throw new CliError({
      reason: 'config',
      message: `cannot open the session store ${location.path}: ${(error as Error).message}`,
      cause: error,
    });
  }
}

/** Opens `@compaction/store-postgres` on the database once it is reachable, applying its migrations. */
async function openPostgresStore(
  connectionString: string,
  options: PostgresStoreOptions,
): Promise<CompactionStore> {
  try {
    const { openPostgresCompactionStore } = await import('@compaction/store-postgres');
    return await openPostgresCompactionStore({ connectionString, ...options });
  } catch (error) {
    // The store's messages name the database without its password.
    throw new CliError({
      reason: 'config',
      message: `cannot open the session store: ${(error as Error).message}`,
      cause: error,
    });
  }
}
