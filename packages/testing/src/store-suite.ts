import type { CompactionRecord, CompactionStore, Message } from '@compaction/core';
import { createRecallTool } from '@compaction/recall';
import { describe, expect, it } from 'vitest';
import { describeArchiveSearch } from './store-search-suite.js';

/** Settings of {@link describeStoreConformance}. */
export interface StoreConformanceSettings {
  /** Makes an empty store. */
  create: () => CompactionStore | Promise<CompactionStore>;
  /**
   * For persistent stores: closes `store` and opens the same storage again, as after a process restart.
   * The suite then checks that everything written is still there.
   */
  reopen?: (store: CompactionStore) => CompactionStore | Promise<CompactionStore>;
  /**
   * Whether the store has the optional `deleteSession` and `sessionUsage` (default true): the suite then
   * checks that a deleted session leaves nothing behind and that a retention sweep can rely on the usage.
   */
  deletes?: boolean;
  /**
   * For stores with a full-text index: what a search for `text` finds, as session ids. The suite checks that
   * a deleted session's text is found no more.
   */
  search?: (store: CompactionStore, text: string) => Promise<string[]>;
  /**
   * Whether the store has the optional `searchArchived` (default true): the suite then checks its full-text
   * search of archived items (words and phrases, ranking, snippets, limits, sessions, scripts, query syntax).
   */
  searches?: boolean;
}

/** Waits long enough for a store's clock (milliseconds at least) to move on. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 15));

const removed: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'the original task <|endoftext|> 日本語' }] },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'plan', signature: 'sig==' },
      {
        type: 'tool-call',
        toolCallId: 'call_1',
        toolName: 'read_file',
        input: { path: 'src/a.ts', lines: [1, 20] },
      },
    ],
    metadata: { anthropic: { cacheControl: { type: 'ephemeral' } } },
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'call_1',
        toolName: 'read_file',
        output: [
          { type: 'text', text: 'export const a = 1;' },
          { type: 'image', image: 'iVBORw0KGgo=', mediaType: 'image/png' },
        ],
        isError: false,
      },
    ],
  },
];

/** A record for tests: the given session and round, with messages of every part kind. */
export function sampleCompactionRecord(sessionId: string, round: number): CompactionRecord {
  return {
    event: {
      id: `${sessionId}-${round}`,
      sessionId,
      round,
      trigger: round % 2 === 0 ? 'manual' : 'auto',
      strategy: 'pruning',
      usedFallback: false,
      tokensBefore: 10_000 + round,
      tokensAfter: 4_000 + round,
      messagesBefore: 40,
      messagesAfter: 12,
      durationMs: 1.5,
      startedAt: '2026-01-01T00:00:00.000Z',
      failures: [],
      repairs: [],
      summary: `summary of round ${round}`,
      details: { stages: [{ name: 'pruning', tokensAfter: 4_000 + round }] },
    },
    removedMessages: structuredClone(removed),
  };
}

/**
 * A record for tests that archived text for recall: texts that must come back byte for byte (no final
 * newline, CRLF, letters outside the Basic Multilingual Plane, a NUL, a lone surrogate, special tokens).
 */
export function sampleArchivingRecord(sessionId: string, round: number): CompactionRecord {
  return {
    ...sampleCompactionRecord(sessionId, round),
    archived: [
      { handle: `bash-${round}`, label: 'bash output', text: 'line 1\r\nline 2\n\n  indented\tend' },
      { handle: 'Ab_9-z', label: 'turns 3-7', text: 'naïve 日本語 😀\u0000 \ud800 <|endoftext|> no newline' },
    ],
  };
}

/**
 * Registers the tests every {@link CompactionStore} must pass: ordered appends, isolation between sessions,
 * copies in and out, concurrent writers to one session, session metadata, closing, and, for persistent
 * stores, reopening with everything still there; and that a deleted session leaves nothing behind.
 */
export function describeStoreConformance(name: string, settings: StoreConformanceSettings): void {
  describe(`${name} store conformance`, () => {
    it('returns appended records in order, and nothing for an unknown session', async () => {
      const store = await settings.create();
      for (const round of [1, 2, 3]) await store.append(sampleCompactionRecord('a', round));
      const records = await store.list('a');
      expect(records).toEqual([1, 2, 3].map((round) => sampleCompactionRecord('a', round)));
      expect(await store.list('unknown')).toEqual([]);
      await store.close();
    });

    it('keeps sessions apart and lists them', async () => {
      const store = await settings.create();
      await store.append(sampleCompactionRecord('b', 1));
      await store.append(sampleCompactionRecord('a', 1));
      await store.updateSessionMetadata('c', { title: 'metadata only' });
      expect(await store.sessions()).toEqual(['a', 'b', 'c']);
      expect((await store.list('a')).map((record) => record.event.sessionId)).toEqual(['a']);
      await store.close();
    });

    it('stores copies: later edits on either side change nothing', async () => {
      const store = await settings.create();
      const record = sampleCompactionRecord('a', 1);
      await store.append(record);
      record.event.summary = 'edited after append';
      const [listed] = await store.list('a');
      listed!.removedMessages.length = 0;
      expect(await store.list('a')).toEqual([sampleCompactionRecord('a', 1)]);
      await store.close();
    });

    it('keeps what a compaction archived exactly, and adds nothing to records without', async () => {
      const store = await settings.create();
      await store.append(sampleCompactionRecord('a', 1));
      await store.append(sampleArchivingRecord('a', 2));
      const [plain, archiving] = await store.list('a');
      expect(plain).not.toHaveProperty('archived');
      expect(archiving).toEqual(sampleArchivingRecord('a', 2));
      await store.close();
    });

    it('takes concurrent writers to one session without losing a record', async () => {
      const store = await settings.create();
      const rounds = Array.from({ length: 60 }, (_, index) => index + 1);
      await Promise.all(rounds.map((round) => store.append(sampleCompactionRecord('busy', round))));
      const listed = (await store.list('busy'))
        .map((record) => record.event.round)
        .sort((left, right) => left - right);
      expect(listed).toEqual(rounds);
      await store.close();
    });

    it('merges session metadata, removing keys set to undefined', async () => {
      const store = await settings.create();
      expect(await store.getSessionMetadata('s')).toBeUndefined();
      expect(await store.updateSessionMetadata('s', { title: 'first', model: 'm' })).toEqual({
        title: 'first',
        model: 'm',
      });
      expect(
        await store.updateSessionMetadata('s', { title: 'second', model: undefined, tags: ['x'] }),
      ).toEqual({
        title: 'second',
        tags: ['x'],
      });
      expect(await store.getSessionMetadata('s')).toEqual({ title: 'second', tags: ['x'] });
      await store.close();
    });

    it('refuses calls after close', async () => {
      const store = await settings.create();
      await store.close();
      await expect(store.list('a')).rejects.toThrow();
      await expect(store.append(sampleCompactionRecord('a', 1))).rejects.toThrow();
    });

    if (settings.deletes !== false) describeDeletion(settings);
    if (settings.searches !== false)
      describeArchiveSearch({ create: settings.create, deletes: settings.deletes !== false });

    // Registered only for stores that can be reopened: an in-memory store has nothing to reopen, and a test
    // that could never run would count as skipped.
    const reopen = settings.reopen;
    if (reopen === undefined) return;
    it('has everything after reopening', async () => {
      const store = await settings.create();
      await store.append(sampleCompactionRecord('a', 1));
      await store.append(sampleArchivingRecord('a', 2));
      await store.updateSessionMetadata('a', { title: 'kept' });
      const reopened = await reopen(store);
      expect(await reopened.list('a')).toEqual([
        sampleCompactionRecord('a', 1),
        sampleArchivingRecord('a', 2),
      ]);
      expect(await reopened.getSessionMetadata('a')).toEqual({ title: 'kept' });
      await reopened.close();
    });
  });
}

/** The checks of `deleteSession` and `sessionUsage`: deleted content is gone, and usage is what a sweep needs. */
function describeDeletion(settings: StoreConformanceSettings): void {
  const deletable = async () => {
    const store = await settings.create();
    if (store.deleteSession === undefined || store.sessionUsage === undefined) {
      throw new Error('the store has no deleteSession or sessionUsage (set deletes: false if it should not)');
    }
    return store as Required<Pick<CompactionStore, 'deleteSession' | 'sessionUsage'>> & CompactionStore;
  };

  it('deletes a session whole: records, archived text, metadata, and search results', async () => {
    const store = await deletable();
    for (const id of ['gone', 'kept']) {
      await store.append(sampleCompactionRecord(id, 1));
      await store.append(sampleArchivingRecord(id, 2));
      await store.updateSessionMetadata(id, { title: `title of ${id}` });
    }
    const recall = createRecallTool({ store, sessionId: 'gone' });
    expect((await recall.execute({ handle: 'bash-2' })).status).toBe('found');
    await store.deleteSession('gone');
    expect(await store.list('gone')).toEqual([]);
    expect(await store.getSessionMetadata('gone')).toBeUndefined();
    expect(await store.sessions()).toEqual(['kept']);
    expect((await recall.execute({ handle: 'bash-2' })).status).toBe('not-found');
    expect(await recall.lookup('Ab_9-z')).toBeUndefined();
    expect((await store.sessionUsage()).map((usage) => usage.sessionId)).toEqual(['kept']);
    if (settings.search !== undefined) {
      expect(await settings.search(store, 'title of gone')).toEqual([]);
      expect(await settings.search(store, 'title of kept')).toEqual(['kept']);
    }
    // The other session is untouched, and deleting what is not there is no error.
    expect(await store.list('kept')).toEqual([
      sampleCompactionRecord('kept', 1),
      sampleArchivingRecord('kept', 2),
    ]);
    expect(await store.getSessionMetadata('kept')).toEqual({ title: 'title of kept' });
    await store.deleteSession('gone');
    await store.deleteSession('never');
    // A deleted session starts afresh when written again.
    await store.append(sampleCompactionRecord('gone', 3));
    expect(await store.list('gone')).toEqual([sampleCompactionRecord('gone', 3)]);
    await store.close();
  });

  it('reports each session by last activity and size, so a sweep deletes the old and keeps the new', async () => {
    const store = await deletable();
    await store.append(sampleArchivingRecord('old', 1));
    await store.updateSessionMetadata('touched', { title: 'written early' });
    await tick();
    const cutoff = Date.now();
    await tick();
    await store.append(sampleCompactionRecord('new', 1));
    await store.updateSessionMetadata('touched', { title: 'written again' });
    const usage = await store.sessionUsage();
    expect(usage.map((entry) => entry.sessionId)).toEqual(['new', 'old', 'touched']);
    const byId = new Map(usage.map((entry) => [entry.sessionId, entry]));
    const time = (id: string) => Date.parse(byId.get(id)!.lastActivityAt);
    expect(time('old')).toBeLessThan(cutoff);
    // Last activity is the newest write: of a record or of metadata.
    expect(time('new')).toBeGreaterThanOrEqual(cutoff);
    expect(time('touched')).toBeGreaterThanOrEqual(cutoff);
    // Sizes count what is stored, removed messages and archived text included.
    const oldBytes = byId.get('old')!.bytes;
    expect(oldBytes).toBeGreaterThan(JSON.stringify(sampleArchivingRecord('old', 1).archived).length);
    expect(oldBytes).toBeGreaterThan(byId.get('new')!.bytes);
    await store.append(sampleArchivingRecord('new', 2));
    const grown = (await store.sessionUsage()).find((entry) => entry.sessionId === 'new')!;
    expect(grown.bytes).toBeGreaterThan(byId.get('new')!.bytes);
    // The sweep of a retention age: what was last active before the cutoff goes, the rest stays.
    for (const entry of usage)
      if (Date.parse(entry.lastActivityAt) < cutoff) await store.deleteSession(entry.sessionId);
    expect(await store.sessions()).toEqual(['new', 'touched']);
    expect(await store.list('old')).toEqual([]);
    expect(await store.list('new')).toHaveLength(2);
    await store.close();
  });
}
