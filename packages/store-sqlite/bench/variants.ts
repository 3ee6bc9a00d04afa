// The ways of running the store that the benchmark compares. Each is opened on a database file and used
// like a CompactionStore.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { CompactionRecord, CompactionStore } from '@compaction/core';
import { openSqliteCompactionStore } from '../src/index.js';
import { SqliteConnection } from '../src/sqlite-connection.js';
import { openDatabase, storeOperations } from '../src/store-operations.js';
import { whenUnlocked } from '../src/when-unlocked.js';

/** The calls the benchmark makes. */
export type BenchmarkedStore = Pick<CompactionStore, 'append' | 'list' | 'close'>;

export interface Variant {
  name: string;
  /** How a process of this variant holds the lock: the lock file and SQLite's, or SQLite's alone. */
  holderMode: 'store' | 'sqlite-only';
  open(path: string): Promise<BenchmarkedStore>;
}

/** The store as it was before the worker thread and the lock file: synchronous calls, blocking waits. */
const baselineCommit = '26786fd389c2230089839e714e96ea3c0951e294';

const before: Variant = {
  name: 'before: SQLite on the calling thread, blocking waits, 30 s stale lock',
  holderMode: 'sqlite-only',
  async open(path) {
    const { createSqliteCompactionStore } = await loadBaseline();
    return createSqliteCompactionStore({ path });
  },
};

const mainThread: Variant = {
  name: 'lock file, SQLite on the calling thread, timer waits',
  holderMode: 'store',
  async open(path) {
    return new MainThreadStore(path);
  },
};

const worker: Variant = {
  name: 'lock file, SQLite in a worker thread, timer waits (this version)',
  holderMode: 'store',
  open: (path) => openSqliteCompactionStore({ path }),
};

export const variants = [before, mainThread, worker];

/** This version's lock and SQL with every call on the calling thread: what the worker thread adds, measured. */
class MainThreadStore implements BenchmarkedStore {
  private readonly connection: SqliteConnection;
  private readonly opening: Promise<void>;

  constructor(path: string) {
    this.connection = new SqliteConnection(path, 30_000);
    this.opening = this.run((database) => openDatabase(database, path));
  }

  async append(record: CompactionRecord): Promise<void> {
    await this.opening;
    await this.run((database) => storeOperations.append(database, record));
  }

  async list(sessionId: string): Promise<CompactionRecord[]> {
    await this.opening;
    return this.run((database) => storeOperations.list(database, sessionId));
  }

  async close(): Promise<void> {
    this.connection.close();
  }

  private run<T>(work: Parameters<typeof whenUnlocked<T>>[1]): Promise<T> {
    return whenUnlocked(this.connection, work, 5000);
  }
}

let baseline: Promise<typeof import('../src/index.js')> | undefined;

/** The previous store, loaded once: opening it is then timed without loading it. */
function loadBaseline(): Promise<typeof import('../src/index.js')> {
  baseline ??= writeAndImportBaseline();
  return baseline;
}

/** Writes the previous store's sources from git beside this script and imports them (tsx runs them). */
async function writeAndImportBaseline(): Promise<typeof import('../src/index.js')> {
  const directory = new URL('./baseline/', import.meta.url);
  mkdirSync(directory, { recursive: true });
  for (const file of ['sqlite-compaction-store.ts', 'schema.ts']) {
    const source = execFileSync('git', ['show', `${baselineCommit}:packages/store-sqlite/src/${file}`], {
      encoding: 'utf8',
    });
    writeFileSync(new URL(file, directory), source);
  }
  return import(new URL('sqlite-compaction-store.ts', directory).href);
}
