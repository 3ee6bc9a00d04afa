import { tmpdir } from 'node:os';
import { InMemoryCompactionStore, type Message } from '@compaction/core';
import { generateCodingHistory } from '@compaction/testing';
import { expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { createInstalledStrategyRegistry } from '../config/installed-strategies.js';
import { resolveSettings } from '../config/resolve-settings.js';
import { HttpError } from '../errors/http-error.js';
import {
  CompactionSession,
  keptCompactionEvents,
  keptRequestKeys,
  type SessionEndReason,
} from './compaction-session.js';
import { messagesBytes } from './message-bytes.js';
import { SessionPersistence } from './session-persistence.js';

const registry = await createInstalledStrategyRegistry();
const text = (value: string): Message => ({ role: 'user', content: [{ type: 'text', text: value }] });

async function session(maxBytes?: number, contextWindow = '16k') {
  const settings = resolveSettings(registry, { 'context-window': contextWindow }, tmpdir());
  return CompactionSession.create('session-1', settings, registry, undefined, { maxBytes });
}

// Not on the Node 22 compatibility run: a session over an in-memory store is plain code, with no module of the
// runtime (the Node 20 run has run it).
describeOnFullRun('CompactionSession', () => {
  it('refuses an append past its size limit with 413 and keeps its messages as they were', async () => {
    const first = [text('a'.repeat(400))];
    const limited = await session(messagesBytes(first) + 100);
    await limited.append(first);
    const before = limited.messages;
    const error = await limited.append([text('b'.repeat(200))]).catch((caught: unknown) => caught);
    expect(HttpError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 413, errorCode: 'session-too-large' });
    expect((error as Error).message).toMatch(
      /^session "session-1" holds \d+ bytes of messages and these 1 add \d+, over its limit of \d+ bytes/,
    );
    expect(limited.messages).toBe(before);
    expect(limited.bytes()).toBe(messagesBytes(first));
    // What still fits is appended.
    await limited.append([text('c')]);
    expect(limited.messages).toHaveLength(2);
  });

  it('applies an append retried with its request key once, and remembers only the newest keys', async () => {
    const keyed = await session();
    await keyed.append([text('first')], undefined, 'key-1');
    expect(await keyed.append([text('first')], undefined, 'key-1')).toEqual({ compacted: false });
    expect(keyed.messages).toEqual([text('first')]);
    await keyed.append([text('second')], undefined, 'key-2');
    expect(keyed.stored().appliedRequests).toEqual(['key-1', 'key-2']);
    for (let index = 0; index < keptRequestKeys; index++)
      await keyed.append([text(`${index}`)], undefined, `more-${index}`);
    expect(keyed.stored().appliedRequests).toHaveLength(keptRequestKeys);
    // The oldest key is forgotten: an append with it is applied again.
    await keyed.append([text('first')], undefined, 'key-1');
    expect(keyed.messages.at(-1)).toEqual(text('first'));
  });

  it('keeps the newest compaction events and counts them all', async () => {
    const compacting = await session(undefined, '2000');
    const history = generateCodingHistory({ messages: 400, seed: 5 });
    for (let start = 0; start < history.length; start += 2)
      await compacting.append(history.slice(start, start + 2));
    for (let round = 0; compacting.compactionCount <= keptCompactionEvents; round++) {
      await compacting.append([text(`more ${round} ${'words '.repeat(200)}`)]);
    }
    expect(compacting.compactions).toHaveLength(keptCompactionEvents);
    expect(compacting.compactions.at(-1)!.round).toBe(compacting.compactionCount);
  });

  it('saves every change in the store, and nothing once deleted, even a change under way', async () => {
    const store = new InMemoryCompactionStore();
    const persistence = new SessionPersistence(store, 60_000);
    const kept = await session();
    kept.sequence = 1;
    kept.keepIn(persistence);
    await kept.append([text('first')]);
    expect(await store.getSessionMetadata('session-1')).toMatchObject({
      serve: { version: 1, sequence: 1, format: 'core' },
      serveMessages: [text('first')],
    });

    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const appending = kept.append([text('late')], async (operation) => {
      await held;
      return operation();
    });
    kept.end('deleted');
    await persistence.forget('session-1');
    release();
    await appending;
    expect(await store.getSessionMetadata('session-1')).toBeUndefined();
    await persistence.close();
  });

  it('is busy while an operation runs or waits, and tells listeners why it ended', async () => {
    const busy = await session();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const appending = busy.append([text('x')], async (operation) => {
      await held;
      return operation();
    });
    expect(busy.busy).toBe(true);
    release();
    await appending;
    expect(busy.busy).toBe(false);

    const reasons: SessionEndReason[] = [];
    busy.subscribe({ compacted: () => {}, ended: (reason) => reasons.push(reason) });
    busy.end('expired');
    busy.end('deleted'); // listeners are told once
    expect(reasons).toEqual(['expired']);
  });
});
