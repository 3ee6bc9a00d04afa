import { describe, expect, it } from 'vitest';
import { collapseMiddle } from '../__fixtures__/collapse-middle.js';
import { conversation } from '../__fixtures__/messages.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { CompactionRecord, CompactionStore } from '../store/compaction-store.js';
import { InMemoryCompactionStore } from '../store/in-memory-compaction-store.js';
import { createTokenCounter } from '../tokens/token-counter.js';
import type { CompactorEvents } from './compaction-event.js';
import { createCompactor } from './compactor.js';

const counter = createTokenCounter();
const history = conversation(40, 400);
const historyTokens = counter.estimate(history);
const budget = {
  contextWindow: Math.ceil(historyTokens * 0.8),
  reservedOutputTokens: 0,
  safetyMargin: 0,
  trigger: 0.7,
  target: 0.3,
};
// A window the history fits in, though over the trigger: `prepare` may keep it when compaction fails.
const roomy = { ...budget, contextWindow: Math.ceil(historyTokens * 1.25) };

/** A store whose appends fail until `working` is set. */
function failingStore(): CompactionStore & { working: boolean; records: CompactionRecord[] } {
  const inner = new InMemoryCompactionStore();
  const store = Object.assign(Object.create(inner) as CompactionStore, {
    working: false,
    records: [] as CompactionRecord[],
    async append(record: CompactionRecord) {
      if (!store.working) throw new Error('disk full');
      store.records.push(record);
    },
  });
  return store;
}

function recordErrors(compactor: ReturnType<typeof createCompactor>) {
  const errors: CompactorEvents['error'][] = [];
  compactor.on('error', (event) => errors.push(event));
  return errors;
}

describe('Compactor side effects', () => {
  it('fails a compaction the store did not record, reports it, and does not advance the session', async () => {
    const store = failingStore();
    const compactor = createCompactor({ strategy: collapseMiddle(), budget, counter, store });
    const errors = recordErrors(compactor);
    await expect(compactor.compact(history, { sessionId: 's' })).rejects.toThrow('disk full');
    expect(errors).toMatchObject([{ sessionId: 's', trigger: 'manual', source: 'store' }]);
    expect((errors[0]!.error as Error).message).toBe('disk full');
    store.working = true;
    const retried = await compactor.compact(history, { sessionId: 's' });
    expect(retried.event?.round).toBe(1);
    expect(store.records.map((record) => record.event.round)).toEqual([1]);
  });

  it('prepare keeps the history when the store fails and it still fits, and reports the failure', async () => {
    const compactor = createCompactor({
      strategy: collapseMiddle(),
      budget: roomy,
      counter,
      store: failingStore(),
    });
    const errors = recordErrors(compactor);
    const result = await compactor.prepare(history);
    expect(result).toMatchObject({ compacted: false });
    expect(result.messages).toEqual(history);
    expect(errors.map((event) => event.source)).toEqual(['store']);
    // The session did not advance: the next check still wants to compact.
    expect(compactor.check(history).shouldCompact).toBe(true);
  });

  it('stops at a failing before hook, and keeps a recorded compaction whose after hook fails', async () => {
    const before = createCompactor({
      strategy: collapseMiddle(),
      budget,
      counter,
      hooks: {
        beforeCompaction: () => {
          throw new Error('before failed');
        },
      },
    });
    const beforeErrors = recordErrors(before);
    await expect(before.compact(history)).rejects.toThrow('before failed');
    expect(beforeErrors.map((event) => event.source)).toEqual(['hook']);

    const store = new InMemoryCompactionStore();
    const after = createCompactor({
      strategy: collapseMiddle(),
      budget,
      counter,
      store,
      hooks: {
        afterCompaction: () => {
          throw new Error('after failed');
        },
      },
    });
    const afterErrors = recordErrors(after);
    const ends: unknown[] = [];
    after.on('end', (event) => ends.push(event));
    const result = await after.compact(history, { sessionId: 's' });
    expect(result.compacted).toBe(true);
    expect(afterErrors).toMatchObject([{ sessionId: 's', source: 'hook' }]);
    expect((afterErrors[0]!.error as Error).message).toBe('after failed');
    expect(ends).toHaveLength(1);
    expect(await store.list('s')).toHaveLength(1);
    expect((await after.compact(history, { sessionId: 's' })).event?.round).toBe(2);
  });

  it('reports a listener that throws as an error event and goes on', async () => {
    const compactor = createCompactor({ strategy: collapseMiddle(), budget, counter });
    const errors = recordErrors(compactor);
    const later: string[] = [];
    compactor.on('end', () => {
      throw new Error('listener failed');
    });
    compactor.on('end', (event) => later.push(event.sessionId));
    const result = await compactor.compact(history, { sessionId: 's' });
    expect(result.compacted).toBe(true);
    expect(later).toEqual(['s']);
    expect(errors).toMatchObject([{ sessionId: 's', trigger: 'manual', source: 'listener', failures: [] }]);
    expect((errors[0]!.error as Error).message).toBe('listener failed');
  });
});

describe('Compactor sessions', () => {
  it('forgets a session on request: its rounds start again', async () => {
    const compactor = createCompactor({ strategy: collapseMiddle(), budget, counter });
    expect((await compactor.compact(history, { sessionId: 'a' })).event?.round).toBe(1);
    expect((await compactor.compact(history, { sessionId: 'a' })).event?.round).toBe(2);
    compactor.forget('a');
    expect((await compactor.compact(history, { sessionId: 'a' })).event?.round).toBe(1);
  });

  it('keeps at most maximumSessions, forgetting the least recently used first', async () => {
    const compactor = createCompactor({ strategy: collapseMiddle(), budget, counter, maximumSessions: 2 });
    const round = async (sessionId: string) => (await compactor.compact(history, { sessionId })).event?.round;
    expect(await round('a')).toBe(1);
    expect(await round('b')).toBe(1);
    expect(await round('a')).toBe(2);
    // A third session: `b`, used least recently, is forgotten; `a` is kept.
    expect(await round('c')).toBe(1);
    expect(await round('a')).toBe(3);
    expect(await round('b')).toBe(1);
    expect(() => createCompactor({ strategy: collapseMiddle(), budget, maximumSessions: 0 })).toThrow(
      InvalidOptionsError,
    );
  });

  it('never forgets a session while its compaction is under way', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = collapseMiddle('slow');
    const compactor = createCompactor({
      strategy: {
        ...slow,
        compact: async (input) => {
          await gate;
          return slow.compact(input);
        },
      },
      budget,
      counter,
      maximumSessions: 1,
    });
    const first = compactor.compact(history, { sessionId: 'a' });
    const queued = compactor.compact(history, { sessionId: 'a' });
    const other = compactor.compact(history, { sessionId: 'b' });
    release();
    const rounds = await Promise.all([first, queued, other]);
    expect(rounds.map((result) => result.event?.round)).toEqual([1, 2, 1]);
  });
});
