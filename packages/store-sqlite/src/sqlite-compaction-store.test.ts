import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { type CompactionStrategy, createCompactor, InMemoryCompactionStore } from '@compaction/core';
import {
  describeStoreConformance,
  sampleArchivingRecord,
  sampleCompactionRecord,
} from '@compaction/testing/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStoreError } from './errors/sqlite-store-error.js';
import { currentProcessIdentity } from './process-identity.js';
import { schemaMigrations, schemaVersion } from './schema.js';
import { createSqliteCompactionStore, openSqliteCompactionStore } from './sqlite-compaction-store.js';
import { SqliteConnection } from './sqlite-connection.js';

const directory = mkdtempSync(join(tmpdir(), 'compaction-sqlite-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let files = 0;
const newPath = () => join(directory, `store-${++files}.db`);
const paths = new WeakMap<object, string>();

describeStoreConformance('sqlite', {
  create: () => {
    const path = newPath();
    const store = createSqliteCompactionStore({ path });
    paths.set(store, path);
    return store;
  },
  reopen: async (store) => {
    await store.close();
    return createSqliteCompactionStore({ path: paths.get(store)! });
  },
  // The Node 22 compatibility run (scripts/test-node-22.sh) does not register the suite's eleven search tests,
  // a store each: what they check is SQL run by SQLite's WebAssembly build, the same on every Node version,
  // and the Node 20 run has checked it. archive-search.test.ts still searches on Node 22.
  searches: process.env.COMPACTION_COMPATIBILITY_RUN === undefined,
});

describe('SqliteCompactionStore', () => {
  it('fails with a locked error naming the holder when a running process keeps the lock', async () => {
    const path = newPath();
    const store = await openSqliteCompactionStore({ path, busyTimeoutMs: 300 });
    // This process, another thread: running, so never taken over.
    const holder = { ...currentProcessIdentity(), thread: threadId + 1000, acquiredAt: Date.now() };
    writeFileSync(`${path}.lock-holder`, JSON.stringify(holder));
    const error = await store.append(sampleCompactionRecord('a', 1)).catch((error: unknown) => error);
    expect(SqliteStoreError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'locked', path, holder: { pid: process.pid } });
    expect((error as Error).message).toContain(`by process ${process.pid}`);
    rmSync(`${path}.lock-holder`);
    expect(await store.list('a')).toEqual([]);
    await store.close();
  });

  it('refuses a file written by a newer version, at opening and on every call', async () => {
    const path = newPath();
    const connection = new SqliteConnection(path, 60_000);
    connection.attempt((database) => database.exec('PRAGMA user_version = 99'));
    connection.close();
    await expect(openSqliteCompactionStore({ path })).rejects.toMatchObject({
      reason: 'newer-schema',
      message: expect.stringContaining('schema 99'),
    });
    const store = createSqliteCompactionStore({ path });
    await expect(store.list('a')).rejects.toSatisfy(SqliteStoreError.isInstance);
    await store.close();
  });

  it('brings a file of the first schema up to date, keeping its records, and archives in it', async () => {
    const path = newPath();
    const connection = new SqliteConnection(path, 60_000);
    const old = sampleCompactionRecord('a', 1);
    connection.attempt((database) => {
      // The file as the first version of this package wrote it.
      for (const statement of schemaMigrations[0]!.statements) database.exec(statement);
      database.exec('PRAGMA user_version = 1');
      database.run(
        `INSERT INTO compactions (event_id, session_id, round, started_at, event, removed_messages)
         VALUES (?, ?, ?, ?, ?, ?)`,
        [
          old.event.id,
          'a',
          1,
          old.event.startedAt,
          JSON.stringify(old.event),
          JSON.stringify(old.removedMessages),
        ],
      );
    });
    connection.close();
    const store = await openSqliteCompactionStore({ path });
    await store.append(sampleArchivingRecord('a', 2));
    expect(await store.list('a')).toEqual([old, sampleArchivingRecord('a', 2)]);
    await store.close();
    const reopened = new SqliteConnection(path, 60_000);
    const version = reopened.attempt((database) => database.get('PRAGMA user_version'));
    reopened.close();
    expect(version).toEqual({ done: true, value: { user_version: schemaVersion } });
    expect(schemaVersion).toBeGreaterThan(1);
  });

  it('dates a record written before append times were kept by its event, for retention', async () => {
    const path = newPath();
    const store = await openSqliteCompactionStore({ path });
    await store.close();
    const connection = new SqliteConnection(path, 60_000);
    const old = sampleCompactionRecord('a', 1);
    connection.attempt((database) =>
      database.run(
        `INSERT INTO compactions (event_id, session_id, round, started_at, event, removed_messages)
         VALUES (?, ?, ?, ?, ?, ?)`,
        [old.event.id, 'a', 1, old.event.startedAt, JSON.stringify(old.event), '[]'],
      ),
    );
    connection.close();
    const reopened = await openSqliteCompactionStore({ path });
    expect(await reopened.sessionUsage()).toEqual([
      { sessionId: 'a', lastActivityAt: old.event.startedAt, bytes: expect.any(Number) },
    ]);
    await reopened.close();
  });

  it('leaves no text of a deleted session in the file', async () => {
    const path = newPath();
    const store = await openSqliteCompactionStore({ path });
    const secret = 'a secret the deleted session held '.repeat(40);
    const record = sampleArchivingRecord('gone', 1);
    record.archived![0]!.text = secret;
    await store.append(record);
    await store.updateSessionMetadata('gone', { note: secret });
    await store.append(sampleCompactionRecord('kept', 1));
    await store.deleteSession('gone');
    await store.close();
    const bytes = readFileSync(path);
    expect(bytes.includes('a secret the deleted session held')).toBe(false);
    expect(bytes.includes('summary of round 1')).toBe(true);
  });

  it('fails calls after close with a closed error, and closes once', async () => {
    const store = createSqliteCompactionStore({ path: newPath() });
    await Promise.all([store.close(), store.close()]);
    await expect(store.sessions()).rejects.toMatchObject({ reason: 'closed' });
  });

  it('refuses a record that cannot be copied to the worker, and goes on', async () => {
    const store = createSqliteCompactionStore({ path: newPath() });
    const record = sampleCompactionRecord('a', 1);
    const unstorable = { ...record, event: { ...record.event, details: { format: () => 'text' } } };
    await expect(store.append(unstorable as never)).rejects.toMatchObject({ reason: 'failed' });
    await store.append(record);
    expect(await store.list('a')).toEqual([record]);
    await store.close();
  });

  it('reports a file that cannot be created as failed', async () => {
    const path = join(directory, 'missing-directory', 'store.db');
    await expect(openSqliteCompactionStore({ path })).rejects.toMatchObject({
      reason: 'failed',
      message: expect.stringContaining(path),
    });
  });

  it('records what the Compactor removed, as the in-memory store does', async () => {
    const messages = [
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'task' }] },
      ...Array.from({ length: 6 }, (_, index) => ({
        role: 'assistant' as const,
        content: [
          {
            type: 'text' as const,
            text: `step ${index}: ${'the agent reads src/index.ts and runs the tests again. '.repeat(12)}`,
          },
        ],
      })),
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'latest' }] },
    ];
    const keepEnds: CompactionStrategy = {
      specificationVersion: 'v1',
      name: 'keep-ends',
      compact: async (input) => ({ messages: [input.messages[0]!, input.messages.at(-1)!] }),
    };
    const sqlite = createSqliteCompactionStore({ path: newPath() });
    const memory = new InMemoryCompactionStore();
    for (const store of [sqlite, memory]) {
      const compactor = createCompactor({
        strategy: keepEnds,
        budget: { contextWindow: 1000 },
        store,
        generateId: () => 'fixed',
      });
      await compactor.compact(messages, { sessionId: 'loop' });
    }
    const [fromSqlite] = await sqlite.list('loop');
    const [fromMemory] = await memory.list('loop');
    expect(fromSqlite!.removedMessages).toEqual(messages.slice(1, -1));
    expect({ ...fromSqlite!.event, durationMs: 0, startedAt: '' }).toEqual({
      ...fromMemory!.event,
      durationMs: 0,
      startedAt: '',
    });
    await sqlite.close();
  });
});
