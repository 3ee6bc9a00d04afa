import { type CompactionEvent, InMemoryCompactionStore, type Message } from '@compaction/core';
import { sampleCompactionRecord } from '@compaction/testing/vitest';
import { afterEach, expect, it, vi } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { type PersistedSession, SessionPersistence, type StoredSession } from './session-persistence.js';

const text = (value: string): Message => ({ role: 'user', content: [{ type: 'text', text: value }] });

function session(id: string, sequence: number, messages: Message[] = [text(id)]) {
  const stored: StoredSession = {
    version: 1,
    sequence,
    createdAt: '2026-01-01T00:00:00.000Z',
    lastActiveAt: '2026-01-01T00:00:00.000Z',
    format: 'core',
  };
  return { id, messages, stored: () => ({ ...stored }) } satisfies PersistedSession;
}

const open: SessionPersistence[] = [];
function persistence(store = new InMemoryCompactionStore()) {
  const created = new SessionPersistence(store, 60_000);
  open.push(created);
  return created;
}
afterEach(async () => {
  for (const created of open.splice(0)) await created.close();
  vi.restoreAllMocks();
});

// Not on the Node 22 compatibility run: what a session persists is plain code (the store is in-memory), with no
// module of the runtime (the Node 20 run has run it).
describeOnFullRun('SessionPersistence', () => {
  it('does not bring back a session deleted elsewhere when it writes a time of use to a shared store', async () => {
    const store = new InMemoryCompactionStore();
    // Shared as far as SessionPersistence can tell: the store locks sessions.
    const shared = Object.assign(store, {
      withSessionLock: <T>(_id: string, run: () => Promise<T>) => run(),
    });
    const saving = persistence(shared);
    const kept = session('kept', 1);
    const deleted = session('deleted', 2);
    await saving.save(kept);
    await saving.save(deleted);
    saving.touched(kept);
    saving.touched(deleted);
    // Another server deletes one of them.
    await persistence(shared).forget('deleted');
    await saving.flushActivity();
    expect((await store.getSessionMetadata('deleted'))?.serve).toBeUndefined();
    expect(await saving.read('deleted')).toBeUndefined();
    expect((await saving.read('kept'))?.messages).toEqual(kept.messages);
  });

  it('restores saved sessions in creation order, with their messages and compaction events', async () => {
    const store = new InMemoryCompactionStore();
    const saving = persistence(store);
    await saving.save(session('b', 2));
    await saving.save(session('a', 1), [text('a'), text('a again')]);
    const event = { id: 'e1', sessionId: 'a', round: 1 } as CompactionEvent;
    await store.append({ event, removedMessages: [text('old')] });
    await store.updateSessionMetadata('not-a-session', { title: 'an application’s own metadata' });

    const restored = await persistence(store).restore();
    expect(restored.map(({ id }) => id)).toEqual(['a', 'b']);
    expect(restored[0]).toMatchObject({ messages: [text('a'), text('a again')], events: [event] });
    expect(restored[0]!.stored).toEqual(session('a', 1).stored());
  });

  it('forgets a session after the writes asked for before, so none of them brings it back', async () => {
    const store = new InMemoryCompactionStore();
    const saving = persistence(store);
    const kept = session('kept', 1);
    await saving.save(kept);
    saving.touched(kept);
    const pending = saving.save(kept, [text('late change')]);
    await saving.forget('kept');
    await pending;
    await saving.flushActivity();
    expect(await store.getSessionMetadata('kept')).toBeUndefined();
    expect(await persistence(store).restore()).toEqual([]);
  });

  it('deletes what a forgotten session recorded: its compactions, removed messages and archived text', async () => {
    const store = new InMemoryCompactionStore();
    const saving = persistence(store);
    for (const id of ['gone', 'kept']) {
      await saving.save(session(id, id === 'gone' ? 1 : 2));
      await store.append({
        event: { ...sampleCompactionRecord(id, 1).event },
        removedMessages: [text(`removed from ${id}`)],
        archived: [{ handle: 'h1', label: 'bash output', text: `archived of ${id}` }],
      });
    }
    await saving.forget('gone');
    expect(await store.sessions()).toEqual(['kept']);
    expect(await store.list('gone')).toEqual([]);
    expect(await store.list('kept')).toHaveLength(1);
  });

  it('clears only its own entries from a store that cannot delete sessions', async () => {
    const store = new InMemoryCompactionStore();
    const limited = Object.assign(store, { deleteSession: undefined });
    const saving = persistence(limited);
    await saving.save(session('old', 1));
    await saving.forget('old');
    expect(await store.getSessionMetadata('old')).toEqual({});
  });

  it('writes the times of use in a batch, and skips entries it cannot read, saying why', async () => {
    const store = new InMemoryCompactionStore();
    const saving = persistence(store);
    const used = session('used', 1);
    await saving.save(used);
    const update = vi.spyOn(store, 'updateSessionMetadata');
    saving.touched(used);
    saving.touched(used);
    expect(update).not.toHaveBeenCalled();
    await saving.flushActivity();
    expect(update).toHaveBeenCalledTimes(1);
    expect(Object.keys(update.mock.calls[0]![1])).toEqual(['serve']);

    await store.updateSessionMetadata('broken', { serve: { version: 2 } });
    await store.updateSessionMetadata('bad-messages', {
      serve: session('bad-messages', 3).stored() as never,
      serveMessages: [{ role: 'robot' }],
    });
    const warnings = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect((await persistence(store).restore()).map(({ id }) => id)).toEqual(['used']);
    expect(warnings.mock.calls.map(([line]) => String(line))).toEqual([
      'compaction serve: session "bad-messages" not restored: its messages are not valid: unknown role "robot"; expected one of system, user, assistant, tool\n',
      'compaction serve: session "broken" not restored: its entry has version 2, not 1\n',
    ]);
  });

  it('answers a store failure as a 500 store-failed', async () => {
    const store = new InMemoryCompactionStore();
    vi.spyOn(store, 'updateSessionMetadata').mockRejectedValue(new Error('disk full'));
    await expect(persistence(store).save(session('x', 1))).rejects.toMatchObject({
      status: 500,
      errorCode: 'store-failed',
      message: 'the session store failed: disk full',
    });
  });
});
