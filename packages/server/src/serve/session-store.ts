import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { CompactionStore } from '@compaction/core';
import { createStoreRegistry, StoreNotFoundError, storeLocationKind } from '@compaction/core/stores';
// The store's own redaction (passwords in the user part and in the query), without loading the driver.
import { redactConnectionString } from '@compaction/store-postgres/redact-connection-string';
import { CliError } from '../errors/cli-error.js';
import { writeFileAtomically } from '../output/write-file-atomically.js';

/** The folder, in the working folder, where `compaction serve` keeps its sessions when `--store` is not given. */
export const defaultStoreFolder = '.compaction';

/** The SQLite file of the default store, in {@link defaultStoreFolder}. */
export const defaultStoreFile = 'sessions.sqlite';

/**
 * Where `compaction serve` keeps its sessions: a SQLite file, a PostgreSQL database, memory only, or the store
 * of another package (by its name, or `@compaction/store-<scheme>` for another URL scheme), found from `directory`.
 */
export type StoreLocation =
  | { kind: 'memory' }
  | { kind: 'sqlite'; path: string; defaulted: boolean }
  | { kind: 'postgres'; connectionString: string }
  | { kind: 'package'; location: string; directory: string };

/** How a PostgreSQL store is run; defaults in `@compaction/store-postgres`. */
export interface PostgresStoreOptions {
  poolSize?: number;
  lockTimeoutMs?: number;
}

/**
 * Reads `--store` as core's store registry does: `memory`, a `postgres://` or `postgresql://` connection
 * string, another URL or a package name (a third-party store), a file path, or nothing for
 * `.compaction/sessions.sqlite` in `directory`.
 */
export function storeLocationOf(flag: string | undefined, directory: string): StoreLocation {
  if (flag === undefined) {
    return { kind: 'sqlite', path: join(directory, defaultStoreFolder, defaultStoreFile), defaulted: true };
  }
  const kind = storeLocationKind(flag);
  if (kind.kind === 'memory') return { kind: 'memory' };
  if (kind.kind === 'url' && /^postgres(ql)?$/.test(kind.scheme))
    return { kind: 'postgres', connectionString: flag };
  if (kind.kind === 'path') return { kind: 'sqlite', path: resolve(directory, flag), defaulted: false };
  return { kind: 'package', location: flag, directory };
}

/** How the start-up line names the store: a path relative to the working folder when inside it. */
export function describeStoreLocation(location: StoreLocation, directory: string): string {
  if (location.kind === 'memory') return 'sessions in memory only';
  if (location.kind === 'postgres')
    return `sessions in PostgreSQL ${redactConnectionString(location.connectionString)}`;
  if (location.kind === 'package')
    return `sessions in the store ${redactConnectionString(location.location)}`;
  const shown = relative(directory, location.path);
  return `sessions in ${shown.startsWith('..') || shown === '' ? location.path : shown}`;
}

/**
 * Opens the store through core's store registry, once it is usable: none for memory (the server keeps its
 * sessions itself), `@compaction/store-sqlite` on a file (created when missing), `@compaction/store-postgres`
 * on a database (migrated), or a third-party store package found from the working folder. The default folder
 * is created with a `.gitignore` that ignores it, so sessions are never committed by accident. A store that
 * cannot be opened stops the start with one line that names it.
 */
export async function openSessionStore(
  location: StoreLocation,
  postgres: PostgresStoreOptions = {},
): Promise<CompactionStore | undefined> {
  if (location.kind === 'memory') return undefined;
  if (location.kind === 'postgres') return openStore(location.connectionString, postgres);
  if (location.kind === 'package') return openStore(location.location, postgres, location.directory);
  const folder = dirname(location.path);
  try {
    if (location.defaulted && !existsSync(folder)) {
      mkdirSync(folder, { recursive: true });
      await writeFileAtomically(join(folder, '.gitignore'), '# Sessions of compaction serve\n*\n');
    }
    if (!existsSync(folder)) throw new Error(`the folder ${folder} does not exist`);
    return await storeRegistry().open(location.path);
  } catch (error) {
    throw new CliError({
      reason: 'config',
      message: `cannot open the session store ${location.path}: ${(error as Error).message}`,
      cause: error,
    });
  }
}

/**
 * The stores the CLI opens: its own store packages are loaded from its folder, a third-party one also from
 * the working folder (a CLI installed globally cannot see an application's packages by itself).
 */
function storeRegistry(directory?: string) {
  return createStoreRegistry({
    loadPackage: (packageName) => import(packageName),
    ...(directory === undefined ? {} : { resolveFrom: directory }),
  });
}

/** Opens a database or a third-party store through the registry, once it is usable. */
async function openStore(
  location: string,
  options: PostgresStoreOptions,
  directory?: string,
): Promise<CompactionStore> {
  try {
    return await storeRegistry(directory).open(location, { ...options });
  } catch (error) {
    // A bare name is a package; a file named so is written as a path.
    const fileHint =
      StoreNotFoundError.isInstance(error) && !location.includes(':') && !location.startsWith('@')
        ? ` (for a file of that name, write --store ./${location})`
        : '';
    // The store's messages name the database without its password.
    throw new CliError({
      reason: 'config',
      message: `cannot open the session store: ${(error as Error).message}${fileHint}`,
      cause: error,
    });
  }
}
