import { tmpdir } from 'node:os';
import { afterEach, expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { createInstalledStrategyRegistry } from '../config/installed-strategies.js';
import { resolveSettings } from '../config/resolve-settings.js';
import { CompactionSession, type SessionEndReason } from './compaction-session.js';
import { LiveSessions } from './live-sessions.js';

const registry = await createInstalledStrategyRegistry();
const settings = resolveSettings(registry, { 'context-window': '16k' }, tmpdir());
const open: LiveSessions[] = [];
afterEach(() => {
  for (const sessions of open.splice(0)) sessions.close();
});

function liveSessions(maxSessions = 100, idleMs = 60_000) {
  const sessions = new LiveSessions({ maxSessions, idleMs });
  open.push(sessions);
  return sessions;
}

async function addSessions(sessions: LiveSessions, count: number, prefix = 's') {
  const added: CompactionSession[] = [];
  for (let index = 0; index < count; index++) {
    const session = await CompactionSession.create(`${prefix}${index}`, settings, registry, undefined);
    sessions.add(session);
    added.push(session);
  }
  return added;
}

// Not on the Node 22 compatibility run: the session table and its timers are plain code, with no module of the
// runtime (the Node 20 run has run it).
describeOnFullRun('LiveSessions', () => {
  it('pages in creation order; deleting between pages skips and repeats none', async () => {
    const sessions = liveSessions();
    await addSessions(sessions, 7);
    const first = sessions.page(3);
    expect(first.sessions.map((session) => session.id)).toEqual(['s0', 's1', 's2']);
    sessions.delete('s2');
    sessions.delete('s3');
    const second = sessions.page(3, first.nextCursor);
    expect(second.sessions.map((session) => session.id)).toEqual(['s4', 's5', 's6']);
    expect(second.nextCursor).toBeUndefined();
    expect(sessions.page(3, '7').sessions).toEqual([]);
    expect(() => sessions.page(3, 'not a cursor')).toThrow(
      /cursor "not a cursor" is not one this server gave/,
    );
  });

  it('refuses a session past the cap with 429', async () => {
    const sessions = liveSessions(2);
    await addSessions(sessions, 2);
    expect(() => sessions.checkCapacity()).toThrow(/at most 2 sessions/);
    sessions.delete('s0');
    expect(() => sessions.checkCapacity()).not.toThrow();
  });

  it('holds a place for a session being created, so creations at once never pass the cap', async () => {
    const sessions = liveSessions(2);
    await addSessions(sessions, 1);
    const place = sessions.reserve();
    expect(() => sessions.reserve()).toThrow(/at most 2 sessions/);
    expect(() => sessions.checkCapacity()).toThrow(/at most 2 sessions/);
    const [created] = await addSessions(new LiveSessions({ maxSessions: 1, idleMs: 60_000 }), 1, 'new');
    place.add(created!);
    expect(sessions.size).toBe(2);
    // Given back once added: releasing it again frees nothing.
    place.release();
    expect(() => sessions.reserve()).toThrow(/at most 2 sessions/);
    sessions.delete('new0');
    const unused = sessions.reserve();
    unused.release();
    unused.release();
    expect(sessions.reserve()).toBeDefined();
  });

  it('removes what a creation wrote when its place was given back early and taken since', async () => {
    const removed: string[] = [];
    const sessions = new LiveSessions({
      maxSessions: 1,
      idleMs: 60_000,
      onRemoved: async (session) => {
        removed.push(session.id);
      },
    });
    open.push(sessions);
    const place = sessions.reserve();
    // The client left: its place goes back, and another creation takes it.
    place.release();
    await addSessions(sessions, 1, 'other');
    const [late] = await addSessions(new LiveSessions({ maxSessions: 1, idleMs: 60_000 }), 1, 'late');
    expect(() => place.add(late!)).toThrow(/at most 1 sessions/);
    expect(removed).toEqual(['late0']);
    expect(sessions.size).toBe(1);
  });

  it('removes a deleted session from the store only after its operations under way', async () => {
    const order: string[] = [];
    const sessions = new LiveSessions({
      maxSessions: 10,
      idleMs: 60_000,
      onRemoved: async (session) => {
        order.push(`removed ${session.id}`);
      },
    });
    open.push(sessions);
    const [session] = await addSessions(sessions, 1);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const append = session!.append(
      [{ role: 'user', content: [{ type: 'text', text: 'x' }] }],
      async (operation) => {
        await held;
        order.push('appended');
        return operation();
      },
    );
    const deleted = sessions.delete('s0');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]);
    release();
    await Promise.all([append, deleted]);
    expect(order).toEqual(['appended', 'removed s0']);
  });

  it('expires sessions idle past the idle time, unless busy, and ends their streams', async () => {
    const sessions = liveSessions(100, 1000);
    const [idle, used, busy] = await addSessions(sessions, 3);
    const start = Date.now();
    for (const session of [idle!, used!, busy!]) session.lastActiveAt = start;
    const reasons: Array<[string, SessionEndReason]> = [];
    for (const session of [idle!, used!, busy!]) {
      session.subscribe({ compacted: () => {}, ended: (reason) => reasons.push([session.id, reason]) });
    }
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const busyAppend = busy!.append(
      [{ role: 'user', content: [{ type: 'text', text: 'x' }] }],
      async (operation) => {
        await held;
        return operation();
      },
    );
    expect(sessions.expire(start + 999)).toBe(0);
    used!.lastActiveAt = start + 900;
    expect(sessions.expire(start + 1000)).toBe(1);
    expect(reasons).toEqual([['s0', 'expired']]);
    expect(() => sessions.get('s0')).toThrow(/no session "s0"/);
    // Reading a session marks it as used.
    used!.lastActiveAt = 0;
    sessions.get('s1');
    expect(used!.lastActiveAt).toBeGreaterThanOrEqual(start);
    expect(sessions.expire(used!.lastActiveAt + 999)).toBe(0);
    expect(sessions.expire(used!.lastActiveAt + 1000)).toBe(1);
    expect(sessions.size).toBe(1);
    release();
    await busyAppend;
    expect(sessions.expire(busy!.lastActiveAt + 1000)).toBe(1);
    expect(reasons.map(([id]) => id)).toEqual(['s0', 's1', 's2']);
    expect(sessions.size).toBe(0);
  });

  it('ends every stream with shutdown when closed', async () => {
    const sessions = liveSessions();
    const [session] = await addSessions(sessions, 1);
    const reasons: SessionEndReason[] = [];
    session!.subscribe({ compacted: () => {}, ended: (reason) => reasons.push(reason) });
    sessions.close();
    expect(reasons).toEqual(['shutdown']);
  });
});
