import {
  type ArchivedItem,
  type CompactionRecord,
  InMemoryCompactionStore,
  InvalidOptionsError,
} from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRecallTool } from './recall-tool.js';

/** A store holding one record per list of items, for `sessionId`. */
async function storeWith(sessionId: string, ...batches: ArchivedItem[][]) {
  const store = new InMemoryCompactionStore();
  for (const [index, archived] of batches.entries()) {
    const record: CompactionRecord = {
      event: {
        id: `${sessionId}-${index}`,
        sessionId,
        round: index + 1,
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
    };
    await store.append(record);
  }
  return store;
}

const output = (lines: number) => Array.from({ length: lines }, (_, index) => `line ${index + 1}`).join('\n');

describe('the recall tool', () => {
  it('answers a handle with its text exactly, and looks items up as archived', async () => {
    const item = { handle: 'a1', label: 'bash output', text: 'total 2\n-rw-r--r-- setup.py\n' };
    const tool = createRecallTool({ store: await storeWith('s', [item]), sessionId: 's' });
    expect(await tool.execute({ handle: 'a1' })).toEqual({
      status: 'found',
      text: item.text,
      truncated: false,
    });
    expect(await tool.lookup('a1')).toEqual(item);
    expect(tool.name).toBe('recall');
  });

  it('refuses the handles of another session', async () => {
    const store = await storeWith('other', [{ handle: 'b2', label: 'secret', text: 'theirs' }]);
    const tool = createRecallTool({ store, sessionId: 'mine' });
    const answer = await tool.execute({ handle: 'b2' });
    expect(answer.status).toBe('not-found');
    expect(answer.text).not.toContain('theirs');
    expect(await tool.lookup('b2')).toBeUndefined();
  });

  it('finds the newest item when a handle was archived in several rounds', async () => {
    const store = await storeWith(
      's',
      [{ handle: 'c3', label: 'first', text: 'same' }],
      [{ handle: 'c3', label: 'second', text: 'same' }],
    );
    expect((await createRecallTool({ store, sessionId: 's' }).lookup('c3'))?.label).toBe('second');
  });

  it('answers a line range with a header that says which lines of how many', async () => {
    const store = await storeWith('s', [{ handle: 'd4', label: 'log', text: output(10) }]);
    const answer = await createRecallTool({ store, sessionId: 's' }).execute({
      handle: 'd4',
      fromLine: 3,
      toLine: 4,
    });
    expect(answer).toEqual({
      status: 'found',
      text: '[recall "d4" (log): lines 3-4 of 10]\nline 3\nline 4',
      truncated: false,
    });
  });

  it('answers a pattern with the matching lines and their numbers, without case', async () => {
    const text = 'ok\nERROR: disk full\nok\nerror: retry\n';
    const store = await storeWith('s', [{ handle: 'e5', label: 'log', text }]);
    const tool = createRecallTool({ store, sessionId: 's' });
    const answer = await tool.execute({ handle: 'e5', pattern: 'error' });
    expect(answer.text).toBe(
      '[recall "e5" (log): 2 matching lines of 5]\n2: ERROR: disk full\n4: error: retry',
    );
    const none = await tool.execute({ handle: 'e5', pattern: 'panic' });
    expect(none).toMatchObject({ status: 'found', truncated: false });
    expect(none.text).toContain('no line of 5 contains "panic"');
  });

  it('bounds answers and says how to read on', async () => {
    const store = await storeWith('s', [{ handle: 'f6', label: 'output', text: output(1000) }]);
    const tool = createRecallTool({ store, sessionId: 's', maximumCharacters: 100 });
    const answer = await tool.execute({ handle: 'f6' });
    expect(answer.truncated).toBe(true);
    expect(answer.text.split('\n').at(-1)).toMatch(/call recall with fromLine \d+ for more/);
    const matches = await tool.execute({ handle: 'f6', pattern: 'line' });
    expect(matches.truncated).toBe(true);
    expect(matches.text).toContain('narrow the pattern');
  });

  it('cuts a single line longer than the bound rather than answering nothing', async () => {
    const store = await storeWith('s', [{ handle: 'g7', label: 'minified', text: 'x'.repeat(500) }]);
    const answer = await createRecallTool({ store, sessionId: 's', maximumCharacters: 100 }).execute({
      handle: 'g7',
    });
    expect(answer.truncated).toBe(true);
    expect(answer.text).toContain('x'.repeat(100));
    expect(answer.text).not.toContain('x'.repeat(101));
  });

  it('paged by fromLine, gives back every line of the text in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.string({ maxLength: 60 }).filter((line) => !line.includes('\n')),
          { maxLength: 80 },
        ),
        fc.integer({ min: 100, max: 400 }),
        async (lines, maximumCharacters) => {
          const text = lines.join('\n');
          const store = await storeWith('s', [{ handle: 'h8', label: 'output', text }]);
          const tool = createRecallTool({ store, sessionId: 's', maximumCharacters });
          const whole = await tool.execute({ handle: 'h8' });
          if (!whole.truncated) {
            expect(whole.text).toBe(text);
            return;
          }
          const pages: string[] = [];
          let fromLine = 1;
          const total = text.split('\n').length;
          while (fromLine <= total) {
            const page = await tool.execute({ handle: 'h8', fromLine });
            const body = page.text.split('\n').slice(1);
            const next = page.truncated ? Number(/fromLine (\d+)/.exec(body.pop() ?? '')?.[1]) : total + 1;
            pages.push(...body.slice(0, next - fromLine));
            fromLine = next;
          }
          expect(pages.join('\n')).toBe(text);
        },
      ),
    );
  });

  it('answers arguments a model got wrong with what is wrong, not an exception', async () => {
    const tool = createRecallTool({ store: await storeWith('s', []), sessionId: 's' });
    for (const input of [
      null,
      'a1',
      {},
      { handle: '' },
      { handle: 'a', fromLine: 0 },
      { handle: 'a', extra: 1 },
    ]) {
      const answer = await tool.execute(input);
      expect(answer.status).toBe('invalid');
      expect(answer.text).toMatch(/^recall: /);
    }
    const backwards = await tool.execute({ handle: 'a', fromLine: 5, toLine: 2 });
    expect(backwards.text).toContain('"toLine" must not come before "fromLine"');
  });

  it('refuses a bound too small to hold a line', () => {
    expect(() =>
      createRecallTool({ store: new InMemoryCompactionStore(), sessionId: 's', maximumCharacters: 5 }),
    ).toThrow(InvalidOptionsError);
  });
});
