import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { sampleCompactionRecord } from '@compaction/testing/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { holdLockInChild, writeInChild } from './__fixtures__/child-processes.js';
import { createSqliteCompactionStore, openSqliteCompactionStore } from './sqlite-compaction-store.js';
import { SqliteConnection } from './sqlite-connection.js';

const directory = mkdtempSync(join(tmpdir(), 'compaction-sqlite-processes-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let files = 0;
const newPath = () => join(directory, `store-${++files}.db`);

function integrityOf(path: string): unknown {
  const connection = new SqliteConnection(path, 60_000);
  try {
    const attempt = connection.attempt((database) => database.get('PRAGMA integrity_check'));
    return attempt.done ? attempt.value : 'locked';
  } finally {
    connection.close();
  }
}

// The Node 22 compatibility run (scripts/test-node-22.sh) does not register the three processes writing 20
// records each (the longest scenario here): the lock they contend for is the store's, whatever the Node
// version, and the Node 20 run has played it; processes holding, waiting for and dying with the lock still run
// on Node 22.
const itOnFullRun: (name: string, body: () => Promise<void>) => void =
  process.env.COMPACTION_COMPATIBILITY_RUN === undefined ? it : () => {};

describe('SqliteCompactionStore across processes', { timeout: 120_000 }, () => {
  it('finds everything another process wrote, which ended by itself without closing', async () => {
    const path = newPath();
    await writeInChild(path, 'restart', 5);
    const store = createSqliteCompactionStore({ path });
    const records = await store.list('restart');
    expect(records.map((record) => record.event.round)).toEqual([1, 2, 3, 4, 5]);
    expect(records[0]!.removedMessages).toEqual(sampleCompactionRecord('restart', 1).removedMessages);
    expect(await store.getSessionMetadata('restart')).toHaveProperty('writer');
    await store.close();
  });

  itOnFullRun('takes concurrent writers from several processes to one session', async () => {
    const path = newPath();
    await (await openSqliteCompactionStore({ path })).close();
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

  it('keeps its event loop turning while another process holds the lock, then writes', async () => {
    const path = newPath();
    const store = await openSqliteCompactionStore({ path, busyTimeoutMs: 120_000 });
    const holder = await holdLockInChild(path, 3);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const utilization = performance.eventLoopUtilization();
    let settled = false;
    const append = store.append(sampleCompactionRecord('waiting', 1)).finally(() => {
      settled = true;
    });
    // A call that blocked its thread for the wait would hold up this timer until the lock was released.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    delay.disable();
    expect(settled).toBe(false);
    // 2 s of waiting: a blocked loop would show one delay of about 2 s; a turning one only the machine's hiccups.
    expect(delay.max / 1e6).toBeLessThan(1000);
    // A blocked loop is busy all along; a waiting one is idle nearly all the time, however loaded the machine.
    expect(performance.eventLoopUtilization(utilization).utilization).toBeLessThan(0.5);
    holder.release();
    await append;
    expect(await holder.ended).toBe(0);
    expect(await store.list('waiting')).toHaveLength(1);
    expect(await store.list('half-done')).toHaveLength(3);
    await store.close();
  });

  it("waits for a program that takes only SQLite's own lock", async () => {
    const path = newPath();
    const store = await openSqliteCompactionStore({ path, busyTimeoutMs: 120_000 });
    const holder = await holdLockInChild(path, 3, 'sqlite-only');
    let settled = false;
    const append = store.append(sampleCompactionRecord('waiting', 1)).finally(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(settled).toBe(false);
    holder.release();
    await append;
    expect(await holder.ended).toBe(0);
    expect(await store.list('half-done')).toHaveLength(3);
    await store.close();
  });

  it('takes over at once the lock of a process killed mid-transaction, which is rolled back', async () => {
    const path = newPath();
    // Lock recovery by age alone would take ten minutes here: only the holder's death can free the lock in time.
    const settings = { path, busyTimeoutMs: 60_000, staleLockMs: 600_000 };
    const store = await openSqliteCompactionStore(settings);
    await store.append(sampleCompactionRecord('kept', 1));
    const holder = await holdLockInChild(path, 200);
    const append = store.append(sampleCompactionRecord('after-crash', 1));
    holder.process.kill('SIGKILL');
    expect(await holder.ended).toBe('SIGKILL');
    await append;
    expect(await store.list('after-crash')).toHaveLength(1);
    expect(await store.list('kept')).toHaveLength(1);
    expect(await store.list('half-done')).toEqual([]);
    await store.close();
    expect(integrityOf(path)).toEqual({ integrity_check: 'ok' });
  });
});
