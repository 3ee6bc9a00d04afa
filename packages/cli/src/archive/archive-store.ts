import { existsSync } from 'node:fs';
import type { CompactionStore } from '@compaction/core';
import { openSessionStore, storeLocationOf, usageError } from '@compaction/server';
import { redactConnectionString } from '@compaction/store-postgres/redact-connection-string';

/** The session `compact --store` records under, and `recall` reads, when `--session` is not given. */
export const defaultSessionId = 'default';

/** A store opened for archiving or recall, and how messages name it. */
export interface ArchiveStore {
  store: CompactionStore;
  /** The file as given, or the database without its password. */
  name: string;
}

/**
 * Opens the store of `--store`: a SQLite file (created when missing, unless `mustExist`) or a `postgres://`
 * database, migrated as `compaction serve` does. `memory` is refused: nothing would be left to recall.
 */
export async function openArchiveStore(
  command: string,
  flag: string | undefined,
  directory: string,
  { mustExist }: { mustExist: boolean },
): Promise<ArchiveStore> {
  if (flag === undefined || flag === '') {
    throw usageError(
      `${command}: --store <path|postgres://...> is required (see compaction ${command} --help)`,
    );
  }
  const location = storeLocationOf(flag, directory);
  if (location.kind === 'memory') {
    throw usageError(`${command}: --store must be a SQLite file or a postgres:// database, not memory`);
  }
  if (location.kind === 'sqlite' && mustExist && !existsSync(location.path)) {
    throw usageError(`${command}: no store at ${flag} (compaction compact --store ${flag} creates it)`);
  }
  const name = location.kind === 'postgres' ? redactConnectionString(location.connectionString) : flag;
  // Neither memory nor missing: the opener always gives a store here.
  const store = (await openSessionStore(location)) as CompactionStore;
  return { store, name };
}

/** How a user recalls from this store: the command line with the handle left to fill in. */
export function recallCommandLine(name: string, sessionId: string): string {
  const session = sessionId === defaultSessionId ? '' : ` --session ${quoteForShell(sessionId)}`;
  return `compaction recall --store ${quoteForShell(name)}${session} <handle>`;
}

/** `text` as one shell word: as it is when plain, else in single quotes. */
function quoteForShell(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
