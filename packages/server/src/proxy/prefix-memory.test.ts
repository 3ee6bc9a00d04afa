import { InMemoryCompactionStore } from '@compaction/core';
import { sampleArchivingRecord } from '@compaction/testing/vitest';
import { expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { type CompactedPrefix, PrefixMemory, storeSession } from './prefix-memory.js';

const entry = (compactions: number): CompactedPrefix => ({
  version: 1,
  format: 'anthropic',
  turnHashes: ['a', 'b'],
  besideHash: 'c',
  replacement: { messages: [{ role: 'user', content: 'summary' }] },
  compactions,
});

const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

// Not on the Node 22 compatibility run: the memory and its sweep are plain code over an in-memory store, with no
// module of the runtime (the Node 20 run has run it).
describeOnFullRun('PrefixMemory', () => {
  it('forgets a conversation whole: its entry here and its entry, records and archive in the store', async () => {
    const store = new InMemoryCompactionStore();
    const memory = new PrefixMemory(store);
    await memory.set('gone', entry(1));
    await memory.set('kept', entry(1));
    await store.append(sampleArchivingRecord(storeSession('gone'), 1));
    await memory.forget('gone');
    expect(await memory.get('gone')).toBeUndefined();
    expect(memory.size).toBe(1);
    expect(await store.sessions()).toEqual([storeSession('kept')]);
  });

  it('sweeps conversations past the retention age from the store and from memory', async () => {
    const store = new InMemoryCompactionStore();
    await store.updateSessionMetadata('serve-session', { title: 'not the proxy’s' });
    const memory = new PrefixMemory(store);
    await memory.set('old', entry(1));
    await store.append(sampleArchivingRecord(storeSession('old'), 1));
    await memory.set('reused', entry(2));
    await pause(60);
    // Reusing a remembered prefix writes nothing to the store, but keeps the conversation.
    await memory.get('reused');
    const sweep = memory.keepWithin({ maxAgeMs: 40, intervalMs: 60_000 }, () => {})!;
    expect(await sweep.sweep()).toBe(1);
    await sweep.stop();
    expect(await store.sessions()).toEqual([storeSession('reused'), 'serve-session']);
    expect(memory.size).toBe(1);
    expect(await memory.get('old')).toBeUndefined();
    // The store now knows the reused one is in use: a sweep from another process keeps it too.
    const usage = await store.sessionUsage();
    const reused = usage.find((found) => found.sessionId === storeSession('reused'))!;
    expect(Date.now() - Date.parse(reused.lastActivityAt)).toBeLessThan(40);
  });

  it('sweeps nothing without a store', () => {
    expect(new PrefixMemory(undefined).keepWithin({ maxAgeMs: 1 }, () => {})).toBeUndefined();
  });
});
