import { tmpdir } from 'node:os';
import { InMemoryCompactionStore, type SessionUsage } from '@compaction/core';
import { sampleArchivingRecord, sampleCompactionRecord } from '@compaction/testing/vitest';
import fc from 'fast-check';
import { afterEach, expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import {
  RetentionSweep,
  type RetentionTarget,
  readRetentionFlags,
  sessionsPastRetention,
  sweepEveryMs,
} from './retention-sweep.js';
import { storeLocationOf } from './session-store.js';

const usageArbitrary = fc
  .uniqueArray(
    fc.record({
      sessionId: fc.string({ minLength: 1, maxLength: 8 }),
      time: fc.integer({ min: 0, max: 1_000_000 }),
      bytes: fc.integer({ min: 0, max: 10_000 }),
    }),
    { selector: (entry) => entry.sessionId, maxLength: 30 },
  )
  .map((entries) =>
    entries.map(
      ({ sessionId, time, bytes }): SessionUsage => ({
        sessionId,
        lastActivityAt: new Date(time).toISOString(),
        bytes,
      }),
    ),
  );

const sweeps: RetentionSweep[] = [];
afterEach(async () => {
  for (const sweep of sweeps.splice(0)) await sweep.stop();
});

/** A target that deletes from `store` whatever the sweep picks, except the sessions of `kept`. */
function target(store: InMemoryCompactionStore, kept: string[] = []): RetentionTarget {
  return {
    owns: (sessionId) => !sessionId.startsWith('other:'),
    remove: async ({ sessionId }) => {
      if (kept.includes(sessionId)) return false;
      await store.deleteSession(sessionId);
      return true;
    },
    report: () => {},
  };
}

// Not on the Node 22 compatibility run: choosing and deleting sessions is plain code over an in-memory store, with
// no module of the runtime (the Node 20 run has run it).
describeOnFullRun('retention', () => {
  it('deletes every session past the age, then the oldest until the rest fit, and nothing more', () => {
    fc.assert(
      fc.property(
        usageArbitrary,
        fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: undefined }),
        (usage, maxAgeMs, maxBytes) => {
          const now = 1_000_000;
          const retention = {
            ...(maxAgeMs === undefined ? {} : { maxAgeMs }),
            ...(maxBytes === undefined ? {} : { maxBytes }),
          };
          const expired = sessionsPastRetention(usage, retention, now);
          const time = (id: string) =>
            Date.parse(usage.find((entry) => entry.sessionId === id)!.lastActivityAt);
          const deleted = new Set(expired.map((entry) => entry.sessionId));
          const left = usage.filter((entry) => !deleted.has(entry.sessionId));
          // Whatever is left is within the age and the size.
          for (const entry of left) {
            if (maxAgeMs !== undefined)
              expect(Date.parse(entry.lastActivityAt)).toBeGreaterThanOrEqual(now - maxAgeMs);
          }
          const leftBytes = left.reduce((sum, entry) => sum + entry.bytes, 0);
          if (maxBytes !== undefined) expect(leftBytes).toBeLessThanOrEqual(maxBytes);
          // Oldest first, and no session newer than one that is left.
          const times = expired.map((entry) => time(entry.sessionId));
          expect(times).toEqual([...times].sort((first, second) => first - second));
          for (const entry of left) {
            for (const gone of expired)
              expect(time(gone.sessionId)).toBeLessThanOrEqual(Date.parse(entry.lastActivityAt));
          }
          // Nothing more: the newest deleted for the size alone was needed to fit.
          const last = expired.at(-1);
          if (last?.reason === 'size') {
            const bytes = usage.find((entry) => entry.sessionId === last.sessionId)!.bytes;
            expect(leftBytes + bytes).toBeGreaterThan(maxBytes!);
          }
          if (maxAgeMs === undefined && maxBytes === undefined) expect(expired).toEqual([]);
        },
      ),
    );
  });

  it('sweeps a store: the old go whole, the new stay, oldest first beyond the size', async () => {
    const store = new InMemoryCompactionStore();
    await store.append(sampleArchivingRecord('old', 1));
    await store.append(sampleArchivingRecord('other:old', 1));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await store.append(sampleCompactionRecord('middle', 1));
    await new Promise((resolve) => setTimeout(resolve, 30));
    await store.append(sampleCompactionRecord('new', 1));
    const sweep = new RetentionSweep(store, { maxAgeMs: 80, intervalMs: 60_000 }, target(store));
    sweeps.push(sweep);
    const newest = Date.parse(
      (await store.sessionUsage()).find((entry) => entry.sessionId === 'new')!.lastActivityAt,
    );
    // Just after the newest write: only what is older than 80 ms goes, and not another server's.
    expect(await sweep.sweep(newest + 10)).toBe(1);
    expect(await store.sessions()).toEqual(['middle', 'new', 'other:old']);
    expect(await store.list('old')).toEqual([]);

    const sizeOf = async (id: string) =>
      (await store.sessionUsage()).find((entry) => entry.sessionId === id)!.bytes;
    const bySize = new RetentionSweep(store, { maxBytes: (await sizeOf('new')) + 1 }, target(store));
    sweeps.push(bySize);
    expect(await bySize.sweep()).toBe(1);
    expect(await store.sessions()).toEqual(['new', 'other:old']);
  });

  it('leaves a session its server keeps for now to the next sweep', async () => {
    const store = new InMemoryCompactionStore();
    await store.append(sampleCompactionRecord('busy', 1));
    const sweep = new RetentionSweep(store, { maxAgeMs: 1 }, target(store, ['busy']));
    sweeps.push(sweep);
    expect(await sweep.sweep(Date.now() + 1000)).toBe(0);
    expect(await store.sessions()).toEqual(['busy']);
  });

  it('sweeps on its own timer until stopped', async () => {
    const store = new InMemoryCompactionStore();
    await store.append(sampleCompactionRecord('old', 1));
    const sweep = new RetentionSweep(store, { maxAgeMs: 1, intervalMs: 10 }, target(store));
    sweeps.push(sweep);
    await expect.poll(() => store.sessions(), { timeout: 2000 }).toEqual([]);
    await sweep.stop();
    await store.append(sampleCompactionRecord('after', 1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await store.sessions()).toEqual(['after']);
  });

  it('refuses a store that cannot list or delete sessions', () => {
    const store = Object.assign(new InMemoryCompactionStore(), { sessionUsage: undefined });
    expect(() => new RetentionSweep(store, { maxAgeMs: 1 }, target(store))).toThrow(
      /cannot keep a retention limit/,
    );
  });

  it('reads the flags, in days too, and refuses them without a store', () => {
    const sqlite = storeLocationOf(undefined, tmpdir());
    expect(readRetentionFlags({}, sqlite)).toBeUndefined();
    expect(readRetentionFlags({ retention: '30d', 'retention-size': '1gb' }, sqlite)).toEqual({
      maxAgeMs: 30 * 86_400_000,
      maxBytes: 1024 ** 3,
    });
    expect(() => readRetentionFlags({ retention: '1h' }, { kind: 'memory' })).toThrow(/need a store/);
    expect(() => readRetentionFlags({ 'retention-size': 'big' }, sqlite)).toThrow(/--retention-size must be/);
    expect(sweepEveryMs({ maxAgeMs: 30 * 86_400_000 })).toBe(600_000);
    expect(sweepEveryMs({ maxAgeMs: 2000 })).toBe(1000);
    expect(sweepEveryMs({ maxBytes: 1 })).toBe(60_000);
  });
});
