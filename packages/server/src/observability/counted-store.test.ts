import { CompactionError, type CompactionStore, InMemoryCompactionStore } from '@compaction/core';
import { expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { countStoreErrors } from './counted-store.js';

/** A memory store whose `getSessionMetadata` fails and whose session lock times out on session `locked`. */
function troubledStore(): CompactionStore {
  const inner = new InMemoryCompactionStore();
  return Object.assign(Object.create(inner) as CompactionStore, {
    getSessionMetadata: async () => {
      throw new Error('disk unreadable');
    },
    withSessionLock: async <Result>(sessionId: string, work: () => Promise<Result>) => {
      if (sessionId === 'locked') {
        throw new CompactionError({ code: 'store-test/lock-timeout', message: 'the lock was held too long' });
      }
      return work();
    },
  });
}

// Counting wraps plain calls, which a second Node version would not change: on the full run only.
describeOnFullRun('countStoreErrors', () => {
  it("counts the store's failures, rethrown as they were, and not what a session lock's work throws", async () => {
    let failures = 0;
    const store = countStoreErrors(troubledStore(), () => failures++);
    await expect(store.getSessionMetadata('a')).rejects.toThrow('disk unreadable');
    expect(failures).toBe(1);
    // The caller's own error inside the lock is no failure of the store.
    await expect(
      store.withSessionLock!('free', async () => {
        throw new Error('the request was refused');
      }),
    ).rejects.toThrow('the request was refused');
    expect(failures).toBe(1);
    await expect(store.withSessionLock!('locked', async () => 1)).rejects.toThrow('held too long');
    expect(failures).toBe(2);
    expect(await store.withSessionLock!('free', async () => 'done')).toBe('done');
    expect(await store.sessions()).toEqual([]);
    expect(failures).toBe(2);
  });
});
