// What the benchmark measures on each variant. Every figure is taken with the variant's default settings.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { sampleCompactionRecord } from '@compaction/testing/vitest';
import { holdLockInChild } from '../src/__fixtures__/child-processes.js';
import { SqliteConnection } from '../src/sqlite-connection.js';
import type { BenchmarkedStore, Variant } from './variants.js';

const directory = mkdtempSync(join(tmpdir(), 'compaction-sqlite-bench-'));
process.on('exit', () => rmSync(directory, { recursive: true, force: true }));
let files = 0;
const newPath = () => join(directory, `store-${++files}.db`);
/**
 * Collects this process's garbage before a measured wait, so that a collection of what earlier measurements left
 * (run with --expose-gc) does not land in one variant's figures.
 */
const collectGarbage = () => (globalThis as { gc?: () => void }).gc?.();
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
let records = 0;
const newRecord = (sessionId: string) => {
  const record = sampleCompactionRecord(sessionId, ++records);
  return { ...record, event: { ...record.event, id: `${sessionId}-${records}` } };
};

/**
 * Sequential calls per second in one process, with no other process. The variants run in turns, round after
 * round, so a change in the machine's load falls on all of them; each figure is the median of its rounds.
 */
export async function callsPerSecond(variants: Variant[], rounds: number) {
  const stores = await Promise.all(variants.map((variant) => variant.open(newPath())));
  for (const store of stores) for (let round = 1; round <= 5; round++) await store.append(newRecord('read'));
  const appends = stores.map((): number[] => []);
  const lists = stores.map((): number[] => []);
  for (let round = 0; round < rounds; round++)
    for (const [index, store] of stores.entries()) {
      appends[index]!.push(await rate(200, () => store.append(newRecord('write'))));
      lists[index]!.push(await rate(400, () => store.list('read')));
    }
  await Promise.all(stores.map((store) => store.close()));
  return stores.map((_, index) => ({
    appendsPerSecond: median(appends[index]!),
    listsPerSecond: median(lists[index]!),
  }));
}

/**
 * Milliseconds to open a store until its first call is answered, and to close it: the medians of 3. The
 * variants on the calling thread load SQLite's WebAssembly once per process, at import, which is not counted;
 * the worker thread loads it for each store.
 */
export async function openAndClose(variant: Variant) {
  const opens: number[] = [];
  const closes: number[] = [];
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    const store = await variant.open(newPath());
    await store.list('none');
    const opened = performance.now();
    await store.close();
    opens.push(opened - started);
    closes.push(performance.now() - opened);
  }
  return { openMs: median(opens), closeMs: median(closes) };
}

/** How long another process holds the lock in each run, and how many runs. */
const holdMs = 3000;
const runs = 3;

/** The event-loop delay of this process doing nothing, as long as the waits: what the machine's load causes. */
export async function idleEventLoop() {
  collectGarbage();
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const utilization = performance.eventLoopUtilization();
  await sleep(holdMs * runs);
  delay.disable();
  return {
    delayP99Ms: delay.percentile(99) / 1e6,
    delayMaxMs: delay.max / 1e6,
    utilization: performance.eventLoopUtilization(utilization).utilization,
  };
}

/**
 * The event loop of a process whose call waits while another process holds the lock in the middle of a write
 * transaction: the worst p99 and maximum delay over the waits (a fresh histogram each: one enabled again would
 * count the time it was off as a delay); the worst share of the hold the loop was busy rather than idle, which,
 * unlike the delay, does not grow when the machine's load keeps the process off a core; the slowest time from
 * release to the call done; and how many calls failed meanwhile (each is retried at once).
 */
export async function eventLoopWhileLocked(variant: Variant) {
  const result = { delayP99Ms: 0, delayMaxMs: 0, utilization: 0, doneAfterReleaseMs: 0, failures: 0 };
  for (let run = 0; run < runs; run++) {
    const path = newPath();
    const store = await variant.open(path);
    await store.append(newRecord('warm-up'));
    const holder = await holdLockInChild(path, 3, variant.holderMode);
    collectGarbage();
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const utilization = performance.eventLoopUtilization();
    const waiting = retryUntilDone(store, 'waiting', 60_000);
    await sleep(holdMs);
    result.utilization = Math.max(
      result.utilization,
      performance.eventLoopUtilization(utilization).utilization,
    );
    holder.release();
    const released = performance.now();
    result.failures += (await waiting).failures;
    result.doneAfterReleaseMs = Math.max(result.doneAfterReleaseMs, performance.now() - released);
    delay.disable();
    result.delayP99Ms = Math.max(result.delayP99Ms, delay.percentile(99) / 1e6);
    result.delayMaxMs = Math.max(result.delayMaxMs, delay.max / 1e6);
    await holder.ended;
    await store.close();
  }
  return result;
}

/**
 * A process killed (SIGKILL) in the middle of a write transaction that it had partly written to the file:
 * how long until another process's call goes through, how many of its calls failed meanwhile, and whether the
 * database is intact with the half-done transaction rolled back.
 */
export async function recoveryFromKilledWriter(variant: Variant) {
  const path = newPath();
  const store = await variant.open(path);
  await store.append(newRecord('kept'));
  const holder = await holdLockInChild(path, 200, variant.holderMode);
  const killed = performance.now();
  holder.process.kill('SIGKILL');
  const { failures } = await retryUntilDone(store, 'after-kill', 120_000);
  const recoveryMs = performance.now() - killed;
  await holder.ended;
  const halfDoneRows = (await store.list('half-done')).length;
  const keptRows = (await store.list('kept')).length;
  await store.close();
  return { recoveryMs, failures, halfDoneRows, keptRows, integrity: integrityOf(path) };
}

async function retryUntilDone(store: BenchmarkedStore, sessionId: string, limitMs: number) {
  const started = performance.now();
  let failures = 0;
  for (;;) {
    try {
      await store.append(newRecord(sessionId));
      return { failures };
    } catch (error) {
      failures++;
      if (performance.now() - started > limitMs) throw error;
      // Lets the timers run (a blocking call gives them no other chance).
      await sleep(20);
    }
  }
}

function integrityOf(path: string): string {
  const connection = new SqliteConnection(path, 30_000);
  try {
    const attempt = connection.attempt(
      (database) => (database.get('PRAGMA integrity_check') as { integrity_check: string }).integrity_check,
    );
    return attempt.done ? attempt.value : 'locked';
  } finally {
    connection.close();
  }
}

async function rate(calls: number, call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < calls; index++) await call();
  return (calls * 1000) / (performance.now() - started);
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)]!;
}
