import { type ArchivedItem, type CompactionStore, InMemoryCompactionStore } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRecallTool } from './recall-tool.js';

/** A store holding one record of `items` for each session. */
async function storeWith(sessions: Record<string, ArchivedItem[]>) {
  const store = new InMemoryCompactionStore();
  for (const [sessionId, archived] of Object.entries(sessions)) {
    await store.append({
      event: {
        id: `${sessionId}-1`,
        sessionId,
        round: 1,
        trigger: 'auto',
        strategy: 'test',
        usedFallback: false,
        tokensBefore: 10,
        tokensAfter: 5,
        messagesBefore: 4,
        messagesAfter: 2,
        durationMs: 1,
        startedAt: new Date(0).toISOString(),
        failures: [],
        repairs: [],
      },
      removedMessages: [],
      archived,
    });
  }
  return store;
}

/** The store's calls without `searchArchived`, as a store that cannot search has them. */
function withoutSearch(store: InMemoryCompactionStore): CompactionStore {
  return {
    append: (record) => store.append(record),
    list: (sessionId) => store.list(sessionId),
    sessions: () => store.sessions(),
    getSessionMetadata: (sessionId) => store.getSessionMetadata(sessionId),
    updateSessionMetadata: (sessionId, metadata) => store.updateSessionMetadata(sessionId, metadata),
    close: () => store.close(),
  };
}

const items: ArchivedItem[] = [
  { handle: 'quota', label: 'bash output', text: 'npm ERR! disk quota exceeded while writing the cache' },
  { handle: 'tests', label: 'test output', text: '12 passed, 1 failed: the quota test timed out' },
  { handle: 'other', label: 'file', text: 'nothing to see' },
];

describe('the recall tool with a store that searches', () => {
  it('offers `query` and answers the matching handles of its session with snippets', async () => {
    const store = await storeWith({ mine: items, theirs: [{ handle: 'secret', label: 'x', text: 'quota' }] });
    const tool = createRecallTool({ store, sessionId: 'mine' });
    expect(tool.searches).toBe(true);
    expect(tool.inputSchema).toMatchObject({ properties: { query: { type: 'string' } }, required: [] });
    expect(tool.description).toContain('query');
    const answer = await tool.execute({ query: 'QUOTA' });
    expect(answer.status).toBe('found');
    expect(answer.hits?.map((hit) => hit.handle).sort()).toEqual(['quota', 'tests']);
    expect(answer.text).toContain(
      'recall "quota" (bash output, compaction 1): npm ERR! disk **quota** exceeded',
    );
    expect(answer.text).toContain('recall "tests" (test output');
    expect(answer.text).not.toContain('secret');
    expect(await tool.execute({ query: '"disk quota" exceeded' })).toMatchObject({
      hits: [{ handle: 'quota' }],
    });
    expect(await tool.execute({ query: 'absent words' })).toMatchObject({ status: 'not-found', hits: [] });
  });

  it('answers arguments a model got wrong in words it can act on', async () => {
    const tool = createRecallTool({ store: await storeWith({ s: items }), sessionId: 's' });
    const cases: [unknown, string][] = [
      [{ query: '   ' }, '"query" must be some words'],
      [{ query: 7 }, '"query" must be some words'],
      [{ query: 'quota', handle: 'quota' }, 'either "query" or "handle"'],
      [{ query: '""' }, 'cannot be searched'],
      [{}, 'or pass "query" instead'],
    ];
    for (const [input, text] of cases) {
      const answer = await tool.execute(input);
      expect(answer.status, JSON.stringify(input)).toBe('invalid');
      expect(answer.text, JSON.stringify(input)).toContain(text);
    }
    // Handles still work as before.
    expect(await tool.execute({ handle: 'other' })).toMatchObject({
      status: 'found',
      text: 'nothing to see',
    });
  });

  it('keeps a search answer within maximumCharacters, dropping the weakest hits first', async () => {
    const many = Array.from({ length: 10 }, (_, index) => ({
      handle: `h${index}`,
      label: 'log',
      text: `${'padding '.repeat(index * 5)}match here`,
    }));
    const tool = createRecallTool({
      store: await storeWith({ s: many }),
      sessionId: 's',
      maximumCharacters: 400,
    });
    const answer = await tool.execute({ query: 'match' });
    expect(answer.text.length).toBeLessThanOrEqual(400);
    expect(answer.truncated).toBe(true);
    expect(answer.text).toContain('recall "h0"');
    expect(answer.hits).toHaveLength(10);
  });

  it('finds an item by any word of its text', async () => {
    const word = fc.stringMatching(/^[\p{L}\p{N}]{1,12}$/u);
    await fc.assert(
      fc.asyncProperty(fc.array(word, { minLength: 1, maxLength: 20 }), fc.nat(), async (words, pick) => {
        const text = words.join(' ');
        const tool = createRecallTool({
          store: await storeWith({ s: [{ handle: 'item', label: 'text', text }] }),
          sessionId: 's',
        });
        const answer = await tool.execute({ query: otherCase(words[pick % words.length]!) });
        expect(answer.hits?.map((hit) => hit.handle)).toEqual(['item']);
      }),
      { numRuns: 50 },
    );
  });
});

/**
 * `word` in upper case where a letter's upper case is one letter that lowers back to it: the search folds case
 * by Unicode's simple case folding, as the databases do, which maps letter to letter. A full mapping such as
 * `ᾀ` to `ἈΙ` (two letters) or `ı` to `I` (which lowers to `i`) is not a case of the same word to it.
 */
function otherCase(word: string): string {
  return [...word]
    .map((letter) => {
      const upper = letter.toUpperCase();
      return [...upper].length === 1 && upper.toLowerCase() === letter ? upper : letter;
    })
    .join('');
}

describe('the recall tool with a store that cannot search', () => {
  it('offers no `query`, and takes one as an unknown argument', async () => {
    const tool = createRecallTool({ store: withoutSearch(await storeWith({ s: items })), sessionId: 's' });
    expect(tool.searches).toBe(false);
    expect(tool.inputSchema).toMatchObject({ required: ['handle'] });
    expect(tool.inputSchema).not.toHaveProperty('properties.query');
    expect(tool.description).not.toContain('query');
    expect(await tool.execute({ query: 'quota' })).toMatchObject({
      status: 'invalid',
      text: expect.stringContaining('unknown argument "query"'),
    });
  });
});
