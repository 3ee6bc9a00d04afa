import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type CompactionStrategy, createCompactor, InMemoryCompactionStore } from '@compaction/core';
import { describeStoreConformance, sampleCompactionRecord } from '@compaction/testing/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteCompactionStore } from './sqlite-compaction-store.js';

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
});

const run = promisify(execFile);
const child = fileURLToPath(new URL('./__fixtures__/write-in-child.ts', import.meta.url));
const writeInChild = (path: string, sessionId: string, count: number) =>
  run(process.execPath, ['--import', 'tsx', child, path, sessionId, String(count)], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
  });

describe('SqliteCompactionStore across processes', () => {
  it('finds everything another process wrote after it exited without closing', async () => {
    const path = newPath();
    await writeInChild(path, 'restart', 5);
    const store = createSqliteCompactionStore({ path });
    const records = await store.list('restart');
    expect(records.map((record) => record.event.round)).toEqual([1, 2, 3, 4, 5]);
    expect(records[0]!.removedMessages).toEqual(sampleCompactionRecord('restart', 1).removedMessages);
    expect(await store.getSessionMetadata('restart')).toHaveProperty('writer');
    await store.close();
  });

  it('clears a lock left by a process that died mid-transaction', async () => {
    const path = newPath();
    await createSqliteCompactionStore({ path }).close();
    mkdirSync(`${path}.lock`);
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${path}.lock`, old, old);
    const store = createSqliteCompactionStore({ path, busyTimeoutMs: 2000 });
    await store.append(sampleCompactionRecord('after-crash', 1));
    expect(await store.list('after-crash')).toHaveLength(1);
    await store.close();
  });

  it('takes concurrent writers from several processes to one session', { timeout: 60_000 }, async () => {
    const path = newPath();
    await createSqliteCompactionStore({ path }).close();
    await Promise.all([
      writeInChild(path, 'shared', 20),
      writeInChild(path, 'shared', 20),
      writeInChild(path, 'shared', 20),
    ]);
    const store = createSqliteCompactionStore({ path });
    const records = await store.list('shared');
    expect(records).toHaveLength(60);
    expect(new Set(records.map((record) => record.event.id)).size).toBe(60);
    await store.close();
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
