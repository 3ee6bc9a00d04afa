import type {
  ArchiveSearchHit,
  ArchiveSearchQuery,
  CompactionRecord,
  CompactionStore,
} from '@compaction/core';
import { InvalidOptionsError } from '@compaction/core';
import { describe, expect, it } from 'vitest';

type SearchingStore = CompactionStore & Required<Pick<CompactionStore, 'searchArchived'>>;

/** A record of `round` in `sessionId` that archived `items` (handle and text, labelled after the handle). */
function archiving(
  sessionId: string,
  round: number,
  items: [handle: string, text: string][],
  second = round,
): CompactionRecord {
  return {
    event: {
      id: `${sessionId}-${round}`,
      sessionId,
      round,
      trigger: 'auto',
      strategy: 'tool-result-truncation',
      usedFallback: false,
      tokensBefore: 10_000,
      tokensAfter: 4_000,
      messagesBefore: 40,
      messagesAfter: 12,
      durationMs: 1.5,
      // One second per round by default, so later rounds are newer.
      startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(),
      failures: [],
      repairs: [],
    },
    removedMessages: [],
    archived: items.map(([handle, text]) => ({ handle, label: `${handle} output`, text })),
  };
}

const handles = (hits: ArchiveSearchHit[]) => hits.map((hit) => hit.handle);
const search = async (store: SearchingStore, query: ArchiveSearchQuery) =>
  handles(await store.searchArchived(query));

/** Makes a store of the suite holding `records`. */
type Searching = (...records: CompactionRecord[]) => Promise<SearchingStore>;
const filler = (words: number) => Array.from({ length: words }, (_, index) => `word${index}`).join(' ');

/**
 * The checks of `searchArchived`: all words, any case and order; phrases; ranking; snippets; limits; one hit
 * per handle; sessions kept apart, deleted ones gone; every script; query syntax of SQL and full-text engines
 * taken as plain text.
 */
export function describeArchiveSearch(settings: {
  create: () => CompactionStore | Promise<CompactionStore>;
  /** Whether to check that a deleted session is found no more (with `deleteSession`). */
  deletes: boolean;
}): void {
  const searching: Searching = async (...records) => {
    const store = await settings.create();
    if (store.searchArchived === undefined) {
      throw new Error('the store has no searchArchived (set searches: false if it should not)');
    }
    for (const record of records) await store.append(record);
    return store as SearchingStore;
  };
  describe('archive search', () => {
    describeMatching(searching);
    describeOrdering(searching);
    describeBounds(searching);
    describeScriptsAndSyntax(searching);
    // Registered only for stores that delete: a test that could never run would count as skipped.
    if (settings.deletes) describeDeletedSearch(searching);
  });
}

/** Which items match: every word, in any order and case; phrases whole. */
function describeMatching(searching: Searching): void {
  it('finds the items that hold every word, in any order and case, with where they were archived', async () => {
    const store = await searching(
      archiving('a', 1, [
        ['both', 'The deploy failed: disk Quota exceeded on the build runner'],
        ['one', 'deploy succeeded without a problem'],
      ]),
      archiving('a', 2, [['other', 'the disk check passed']]),
    );
    expect(await search(store, { text: 'QUOTA deploy' })).toEqual(['both']);
    expect((await search(store, { text: 'deploy' })).sort()).toEqual(['both', 'one']);
    expect(await search(store, { text: 'deploy nowhere' })).toEqual([]);
    const [hit] = await store.searchArchived({ text: 'check', sessionId: 'a' });
    expect(hit).toEqual({
      sessionId: 'a',
      handle: 'other',
      label: 'other output',
      round: 2,
      archivedAt: '2026-01-01T00:00:02.000Z',
      snippet: expect.stringContaining('**check**'),
    });
    await store.close();
  });

  it('takes text in double quotes as one phrase', async () => {
    const store = await searching(
      archiving('a', 1, [
        ['phrase', 'read failed: connection reset by peer'],
        ['words', 'the peer reset the connection by hand'],
        ['listing', '400:        if constraint is self:\n-rw-r--r--\t1 root\t4096 setup.py'],
      ]),
    );
    expect(await search(store, { text: '"reset by peer"' })).toEqual(['phrase']);
    expect(await search(store, { text: '"reset BY peer" connection' })).toEqual(['phrase']);
    // A line copied from a tool's output, runs of spaces and tabs as they were, finds that line.
    expect(await search(store, { text: '"400:        if constraint is self:"' })).toEqual(['listing']);
    expect(await search(store, { text: '"1 root\t4096 setup.py"' })).toEqual(['listing']);
    expect((await search(store, { text: 'reset by peer' })).sort()).toEqual(['phrase', 'words']);
    await store.close();
  });
}

/** Which come first, one hit per handle, and what their snippets show. */
function describeOrdering(searching: Searching): void {
  it('ranks an item with more matches, closer together, first', async () => {
    const store = await searching(
      archiving('a', 1, [['dense', 'timeout after timeout: the request timeout was hit']]),
      // Newer, so only its ranking can put it second.
      archiving('a', 2, [['sparse', `${filler(150)} a timeout once ${filler(150)}`]]),
    );
    expect(await search(store, { text: 'timeout' })).toEqual(['dense', 'sparse']);
    await store.close();
  });

  it('orders equal matches newest first, and answers one hit per handle, from its newest record', async () => {
    const text = 'npm ERR! code ERESOLVE unable to resolve dependency tree';
    const store = await searching(
      archiving('a', 1, [['first', text]]),
      archiving('b', 2, [['second', text]]),
      archiving('a', 3, [
        ['third', text],
        ['again', 'old text of a handle archived again'],
      ]),
      archiving('a', 4, [['again', text]]),
    );
    expect(await search(store, { text: 'eresolve' })).toEqual(['again', 'third', 'second', 'first']);
    const [again] = await store.searchArchived({ text: 'eresolve', limit: 1 });
    expect(again).toMatchObject({ handle: 'again', round: 4, archivedAt: '2026-01-01T00:00:04.000Z' });
    expect(await search(store, { text: 'old text' })).toEqual([]);
    await store.close();
  });

  it('marks the matches in a snippet of about 200 characters around the first one', async () => {
    const text = `${filler(200)} then the build ERROR E42 appeared here\n\nand  again: error ${filler(200)}`;
    const store = await searching(archiving('a', 1, [['long', text]]));
    const [hit] = await store.searchArchived({ text: 'error e42' });
    expect(hit!.snippet).toContain('build **ERROR** **E42** appeared here and again: **error**');
    expect(hit!.snippet.length).toBeLessThanOrEqual(240);
    expect(hit!.snippet.startsWith('…')).toBe(true);
    expect(hit!.snippet.endsWith('…')).toBe(true);
    await store.close();
  });
}

/** How many hits, which queries are refused, and which sessions are searched. */
function describeBounds(searching: Searching): void {
  it('answers at most `limit` hits, 10 by default and 100 at most', async () => {
    const items = Array.from({ length: 105 }, (_, index): [string, string] => [`item-${index}`, 'same text']);
    const store = await searching(archiving('a', 1, items));
    expect(await search(store, { text: 'same' })).toHaveLength(10);
    expect(await search(store, { text: 'same', limit: 3 })).toHaveLength(3);
    expect(await search(store, { text: 'same', limit: 1000 })).toHaveLength(100);
    await store.close();
  });

  it('rejects a query with nothing to search for or a limit that is not a positive integer', async () => {
    const store = await searching(archiving('a', 1, [['item', 'some text']]));
    for (const query of [
      { text: '' },
      { text: '  "" \n' },
      { text: 'text', limit: 0 },
      { text: 'x', limit: 1.5 },
    ]) {
      const error = await store.searchArchived(query).catch((error: unknown) => error);
      expect(InvalidOptionsError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ name: 'InvalidSearchQueryError', code: 'core/invalid-options' });
    }
    await store.close();
  });

  it("never answers another session's items when given a session", async () => {
    const text = 'shared secret text';
    const store = await searching(
      archiving('a', 1, [['of-a', text]]),
      archiving('A', 1, [['of-upper-a', text]]),
      archiving('a%', 1, [['of-a-percent', text]]),
      archiving('b', 1, [['of-b', text]]),
    );
    expect(await search(store, { text: 'secret', sessionId: 'a' })).toEqual(['of-a']);
    expect(await search(store, { text: 'secret', sessionId: 'a%' })).toEqual(['of-a-percent']);
    expect(await search(store, { text: 'secret', sessionId: 'none' })).toEqual([]);
    expect(await search(store, { text: 'secret' })).toHaveLength(4);
    await store.close();
  });
}

/** Text in every script, and queries full of the syntax of SQL and full-text engines. */
function describeScriptsAndSyntax(searching: Searching): void {
  it('finds words of every script, inside sentences of scripts written without spaces', async () => {
    const store = await searching(
      archiving('a', 1, [
        ['russian', 'Ошибка подключения к базе данных: отказано в доступе'],
        ['chinese', '我们今天讨论了数据库的索引设计，然后部署到生产环境。'],
        ['japanese', 'ファイルを読み込めませんでした。権限を確認してください。'],
        ['korean', '데이터베이스 연결 오류가 발생했습니다'],
        ['french', 'Le café était fermé à Noël, dit-elle.'],
        ['emoji', 'build passed 🎉 after the 2nd retry'],
      ]),
    );
    const cases: [string, string, string][] = [
      ['БАЗЕ данных', 'russian', '**базе** **данных**'],
      ['К', 'russian', '**к**'],
      ['数据', 'chinese', '**数据**'],
      ['索引设计', 'chinese', '**索引设计**'],
      ['権限', 'japanese', '**権限**'],
      ['오류', 'korean', '**오류**'],
      ['CAFÉ noël', 'french', '**café**'],
      ['🎉', 'emoji', '**🎉**'],
    ];
    for (const [text, handle, marked] of cases) {
      const hits = await store.searchArchived({ text });
      expect(handles(hits), text).toEqual([handle]);
      expect(hits[0]!.snippet, text).toContain(marked);
    }
    // The accent is part of the letter: `cafe` is another word.
    expect(await search(store, { text: 'cafe' })).toEqual([]);
    await store.close();
  });

  it('takes the syntax of SQL and of full-text queries as plain text', async () => {
    const store = await searching(
      archiving('a', 1, [
        ['syntax', `it's (a) test: x-y * 50% done_now "quoted" \\ NEAR(a b) OR NOT`],
        ['plain', 'it is a test of 50 percent, doneXnow, x y'],
      ]),
    );
    const queries = [`it's`, '(a)', 'test:', 'x-y', '*', '50%', 'done_now', '"quoted', '\\', 'NEAR(a', '-y'];
    for (const text of queries) expect(await search(store, { text }), text).toEqual(['syntax']);
    for (const text of [`'); DROP TABLE compactions; --`, '%', '_', ')', 'a OR', '"', '***', '^x', '{}']) {
      const result = await store.searchArchived({ text }).catch((error: unknown) => error);
      if (!Array.isArray(result)) expect(InvalidOptionsError.isInstance(result), text).toBe(true);
    }
    expect(await search(store, { text: '50 percent' })).toEqual(['plain']);
    // `%` and `_` are no wildcards, and short words are compared in any case too.
    for (const text of ['%', '_', 'T:']) expect(await search(store, { text }), text).toEqual(['syntax']);
    expect((await search(store, { text: 'IT' })).sort()).toEqual(['plain', 'syntax']);
    expect(await store.list('a')).toHaveLength(1);
    await store.close();
  });
}

/** A deleted session's items are found no more, and a session written again is found by its new text. */
function describeDeletedSearch(searching: Searching): void {
  it('finds nothing of a deleted session', async () => {
    const store = await searching(
      archiving('gone', 1, [['of-gone', 'the text of a deleted session']]),
      archiving('kept', 1, [['of-kept', 'the text of a kept session']]),
    );
    await store.deleteSession!('gone');
    expect(await search(store, { text: 'text session' })).toEqual(['of-kept']);
    expect(await search(store, { text: 'deleted' })).toEqual([]);
    // Written again, the session is found again, by its new text only.
    await store.append(archiving('gone', 1, [['of-gone', 'written again']]));
    expect(await search(store, { text: 'written', sessionId: 'gone' })).toEqual(['of-gone']);
    expect(await search(store, { text: 'deleted' })).toEqual([]);
    await store.close();
  });
}
