import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { CompactionStore } from '@compaction/core';
import { CliError } from '../errors/cli-error.js';
import { writeFileAtomically } from '../output/write-file-atomically.js';

/** The folder, in the working folder, where `compaction serve` keeps its sessions when `--store` is not given. */
export const defaultStoreFolder = '.compaction';

/** The SQLite file of the default store, in {@link defaultStoreFolder}. */
export const defaultStoreFile = 'sessions.sqlite';

/** Where `compaction serve` keeps its sessions: a SQLite file, or memory only. */
export type StoreLocation = { kind: 'memory' } | { kind: 'sqlite'; path: string; defaulted: boolean };

/** Reads `--store`: `memory`, a file path, or nothing for `.compaction/sessions.sqlite` in `directory`. */
export function storeLocationOf(flag: string | undefined, directory: string): StoreLocation {
  if (flag === 'memory') return { kind: 'memory' };
  if (flag === undefined) {
    return { kind: 'sqlite', path: join(directory, defaultStoreFolder, defaultStoreFile), defaulted: true };
  }
  return { kind: 'sqlite', path: resolve(directory, flag), defaulted: false };
}

/** How the start-up line names the store: a path relative to the working folder when inside it. */
export function describeStoreLocation(location: StoreLocation, directory: string): string {
  if (location.kind === 'memory') return 'sessions in memory only';
  const shown = relative(directory, location.path);
  return `sessions in ${shown.startsWith('..') || shown === '' ? location.path : shown}`;
}

/**
 * Opens the store: none for memory, otherwise `@compaction/store-sqlite` on the file, created when missing.
 * The default folder is created with a `.gitignore` that ignores it, so sessions are never committed by
 * accident. A file that cannot be opened stops the start with one line that names it.
 */
export async function openSessionStore(location: StoreLocation): Promise<CompactionStore | undefined> {
  if (location.kind === 'memory') return undefined;
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
      kind: 'config',
      message: `cannot open the session store ${location.path}: ${(error as Error).message}`,
      cause: error,
    });
  }
}
