import {
  type CompactionRecord,
  type CompactionStore,
  InMemoryCompactionStore,
  InvalidOptionsError,
} from '@compaction/core';
import { createRecallTool } from '@compaction/recall';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveGeneratedSessions } from './__fixtures__/archived-conversations.js';
import { callTool, connectClient } from './__fixtures__/connect-client.js';
import { createCompactionMcpServer } from './compaction-mcp-server.js';

// The tools through the SDK's own client, over an in-memory transport, on a store that a real Compactor
// filled (generated coding history, masked with archiving on): no fixtures needed.

const store = new InMemoryCompactionStore();
const clients: Client[] = [];
let anySession: Client;
let firstSession: Client;

async function client(settings: Omit<Parameters<typeof connectClient>[0], 'store'> = {}): Promise<Client> {
  const connected = await connectClient({ store, ...settings });
  clients.push(connected);
  return connected;
}

/** Every archived item of a session, with the round that archived it, oldest first. */
function archivedOf(records: readonly CompactionRecord[]) {
  return records.flatMap((record) =>
    (record.archived ?? []).map((item) => ({ ...item, round: record.event.round })),
  );
}

beforeAll(async () => {
  await archiveGeneratedSessions(store);
  anySession = await client();
  firstSession = await client({ sessionId: 'first' });
});

afterAll(async () => {
  await Promise.all(clients.map((connected) => connected.close()));
});

describe('createCompactionMcpServer', () => {
  it('offers recall, search, compaction_status and compact, each saying when to use it', async () => {
    const { tools } = await anySession.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'compact',
      'compaction_status',
      'recall',
      'search',
    ]);
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.recall!.description).toContain('recall "<handle>"');
    expect(byName.recall!.inputSchema.required).toEqual(['handle']);
    expect(byName.search!.description).toContain('remember words');
    expect(byName.search!.inputSchema.required).toEqual(['query']);
    expect(anySession.getInstructions()).toContain('recall "<handle>"');
  });

  it('recalls every archived item exactly as archived, with or without a session', async () => {
    const items = archivedOf(await store.list('first'));
    expect(items.length).toBeGreaterThan(20);
    for (const item of items) {
      expect(await callTool(firstSession, 'recall', { handle: item.handle })).toEqual({
        text: item.text,
        isError: false,
      });
    }
    // Without a session every session's records are read for each call: a sample is enough.
    for (const item of fc.sample(fc.constantFrom(...items), 10)) {
      expect((await callTool(anySession, 'recall', { handle: item.handle })).text).toBe(item.text);
    }
  });

  it('answers line ranges and patterns as the recall tool does', async () => {
    const items = archivedOf(await store.list('second'));
    const recall = createRecallTool({ store, sessionId: 'second' });
    const requests = fc.record(
      {
        handle: fc.constantFrom(...items.map((item) => item.handle)),
        fromLine: fc.integer({ min: 1, max: 40 }),
        toLine: fc.integer({ min: 40, max: 80 }),
        pattern: fc.constantFrom('error', 'PASS', 'users', 'no such text'),
      },
      { requiredKeys: ['handle'] },
    );
    await fc.assert(
      fc.asyncProperty(requests, async (request) => {
        const expected = await recall.execute(request);
        const answer = await callTool(anySession, 'recall', request);
        expect(answer).toEqual({ text: expected.text, isError: false });
      }),
      { numRuns: 40 },
    );
    const [item] = items;
    const lines = item!.text.split('\n');
    const range = await callTool(anySession, 'recall', { handle: item!.handle, fromLine: 2, toLine: 3 });
    expect(range.text).toBe(
      `[recall "${item!.handle}" (${item!.label}): lines 2-3 of ${lines.length}]\n${lines[1]}\n${lines[2]}`,
    );
  });

  it('keeps recall answers within the bound and says how to read on', async () => {
    const bounded = await client({ maximumCharacters: 300 });
    const item = archivedOf(await store.list('first')).find((archived) => archived.text.length > 1000)!;
    const answer = await callTool(bounded, 'recall', { handle: item.handle });
    expect(answer.isError).toBe(false);
    expect(answer.text).toMatch(/\[cut: lines 1-\d+ shown; call recall with fromLine \d+ for more\]$/);
    expect(answer.text.length).toBeLessThan(300 + 200);
  });

  it('looks a handle up in the newest session that archived it when no session is given', async () => {
    const separate = new InMemoryCompactionStore();
    const archived = (sessionId: string, startedAt: string, text: string): CompactionRecord => ({
      event: { ...(record(sessionId, 1, startedAt).event as CompactionRecord['event']) },
      removedMessages: [],
      archived: [{ handle: 'shared1', label: 'bash output', text }],
    });
    // The newer compaction's session comes last by name and was written first: neither decides.
    await separate.append(archived('beta', '2026-02-01T00:00:00.000Z', 'new text'));
    await separate.append(archived('alpha', '2026-01-01T00:00:00.000Z', 'old text'));
    const connected = await connectClient({ store: separate });
    clients.push(connected);
    expect((await callTool(connected, 'recall', { handle: 'shared1' })).text).toBe('new text');
    expect((await callTool(connected, 'recall', { handle: 'shared1', session: 'alpha' })).text).toBe(
      'old text',
    );
    // A store that does not say when each session was last active is read whole, with the same answer.
    const { sessionUsage: _, ...withoutUsage } = bindStore(separate);
    const reading = await connectClient({ store: withoutUsage as CompactionStore });
    clients.push(reading);
    expect((await callTool(reading, 'recall', { handle: 'shared1' })).text).toBe('new text');
  });

  it('gives tool errors, not failures, for unknown handles, sessions and wrong arguments', async () => {
    const unknownHandle = await callTool(anySession, 'recall', { handle: 'zzzz9999' });
    expect(unknownHandle.isError).toBe(true);
    expect(unknownHandle.text).toContain('no archived text "zzzz9999" in any conversation');
    const notInSession = await callTool(firstSession, 'recall', { handle: 'zzzz9999' });
    expect(notInSession).toMatchObject({ isError: true });
    expect(notInSession.text).toContain('No archived text "zzzz9999" in this conversation');
    for (const [name, input] of [
      ['recall', { handle: 'a1', session: 'nobody' }],
      ['search', { query: 'error', session: 'nobody' }],
      ['compaction_status', { session: 'nobody' }],
    ] as const) {
      const answer = await callTool(anySession, name, input);
      expect(answer.isError, name).toBe(true);
      expect(answer.text).toBe(
        `${name}: no session "nobody" in the compaction store (it has "first", "second")`,
      );
    }
    const backwards = await callTool(anySession, 'recall', { handle: 'a1', fromLine: 5, toLine: 2 });
    expect(backwards.isError).toBe(true);
    const wrongType = await callTool(anySession, 'recall', { handle: 42 });
    expect(wrongType.isError).toBe(true);
    expect(wrongType.text).toContain('handle');
  });

  it('reports the compaction rounds of a session as the records hold them', async () => {
    const records = await store.list('first');
    expect(records).toHaveLength(2);
    const { text, isError } = await callTool(firstSession, 'compaction_status', {});
    expect(isError).toBe(false);
    const archivedCount = archivedOf(records).length;
    expect(text.split('\n')[0]).toBe(
      `Session "first": 2 compaction rounds, ${archivedCount} archived texts.`,
    );
    const rounds = [...text.matchAll(/^Round (\d+) at (\S+) \((\w+), ([\w-]+)\): (\d+) -> (\d+) tokens/gm)];
    expect(rounds.map((match) => match.slice(1).join(' '))).toEqual(
      records.map(({ event }) =>
        [
          event.round,
          event.startedAt,
          event.trigger,
          event.strategy,
          event.tokensBefore,
          event.tokensAfter,
        ].join(' '),
      ),
    );
    const listed = [...text.matchAll(/^ {2}recall "([^"]+)": (.+) \((\d+) characters\)$/gm)];
    expect(listed.map((match) => [match[1], match[2], Number(match[3])])).toEqual(
      archivedOf(records).map((item) => [item.handle, item.label, item.text.length]),
    );
    const other = await callTool(firstSession, 'compaction_status', { session: 'second' });
    expect(other.text.split('\n')[0]).toMatch(/^Session "second": 1 compaction round, \d+ archived texts\.$/);
  });

  it('leaves the older rounds’ handles out of a status over the size bound', async () => {
    const records = await store.list('first');
    const newest = records.at(-1)!.archived!;
    const newestListing = newest.reduce(
      (total, item) =>
        total + `  recall "${item.handle}": ${item.label} (${item.text.length} characters)\n`.length,
      0,
    );
    // Room for the header, the round lines and the newest round's handles, not the first round's.
    const bounded = await client({ sessionId: 'first', maximumCharacters: newestListing + 600 });
    const { text } = await callTool(bounded, 'compaction_status', {});
    expect(text.length).toBeLessThanOrEqual(newestListing + 600 + 200);
    const lines = text.split('\n');
    const secondRound = lines.findIndex((line) => line.startsWith('Round 2 at '));
    expect(lines[2]).toBe(
      `  (${records[0]!.archived!.length} handles not listed, to keep this answer short: search finds them by what they held)`,
    );
    expect(lines.slice(secondRound + 1).map((line) => /recall "([^"]+)"/.exec(line)?.[1])).toEqual(
      newest.map((item) => item.handle),
    );
  });

  it('lists the sessions with their counts when it has no session', async () => {
    const { text } = await callTool(anySession, 'compaction_status', {});
    const lines = text.split('\n');
    expect(lines[0]).toBe('2 sessions in the compaction store:');
    for (const sessionId of ['first', 'second']) {
      const records = await store.list(sessionId);
      expect(lines).toContain(
        `  "${sessionId}": ${records.length} compaction rounds, ${archivedOf(records).length} archived texts`,
      );
    }
  });

  it('searches the archive through the store, and says so when the store cannot search', async () => {
    const item = archivedOf(await store.list('second'))[0]!;
    const { text, isError } = await callTool(anySession, 'search', { query: 'AssertionError', limit: 3 });
    expect(isError).toBe(false);
    expect(text.split('\n')[0]).toBe('3 archived items match "AssertionError":');
    expect(text).toMatch(/^1\. recall "[^"]+" \([^;]+; session "(first|second)", round \d, archived \S+\)$/m);
    const scoped = await callTool(anySession, 'search', { query: 'AssertionError', session: 'second' });
    expect(scoped.text).not.toContain('session "first"');
    expect((await callTool(anySession, 'search', { query: 'no-such-words-anywhere' })).text).toBe(
      'No archived text matches "no-such-words-anywhere". Try other words, or fewer of them.',
    );
    const nothingToSearch = await callTool(anySession, 'search', { query: '""' });
    expect(nothingToSearch.isError).toBe(true);
    expect(nothingToSearch.text).toContain('no word or phrase to search for');
    const { searchArchived: _, ...withoutSearch } = bindStore(store);
    const plain = await connectClient({ store: withoutSearch as CompactionStore });
    clients.push(plain);
    const refused = await callTool(plain, 'search', { query: item.label });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('cannot search its archive');
  });

  it('turns a failing store into a tool error that says so', async () => {
    const failing = { ...bindStore(store), list: () => Promise.reject(new Error('disk I/O error')) };
    const connected = await connectClient({
      store: failing as unknown as CompactionStore,
      sessionId: 'first',
    });
    clients.push(connected);
    const answer = await callTool(connected, 'compaction_status', {});
    expect(answer).toEqual({
      text: 'compaction_status: the compaction store failed: disk I/O error',
      isError: true,
    });
  });

  it('refuses settings it cannot serve, at creation', () => {
    expect(() => createCompactionMcpServer({ store, sessionId: '' })).toThrow(InvalidOptionsError);
    expect(() => createCompactionMcpServer({ store, maximumCharacters: 5 })).toThrow(/maximumCharacters/);
    expect(() => createCompactionMcpServer({ store: {} as CompactionStore })).toThrow(/store/);
  });
});

/** The store's methods as own properties bound to it, so a test can leave one out or replace it. */
function bindStore(source: InMemoryCompactionStore) {
  return {
    append: source.append.bind(source),
    list: source.list.bind(source),
    sessions: source.sessions.bind(source),
    getSessionMetadata: source.getSessionMetadata.bind(source),
    updateSessionMetadata: source.updateSessionMetadata.bind(source),
    searchArchived: source.searchArchived.bind(source),
    sessionUsage: source.sessionUsage.bind(source),
    close: source.close.bind(source),
  };
}

/** A compaction record with nothing archived, at `startedAt`. */
function record(sessionId: string, round: number, startedAt: string): CompactionRecord {
  return {
    event: {
      id: `${sessionId}-${round}`,
      sessionId,
      round,
      trigger: 'manual',
      strategy: 'tool-result-truncation',
      usedFallback: false,
      tokensBefore: 1000,
      tokensAfter: 100,
      messagesBefore: 10,
      messagesAfter: 4,
      durationMs: 1,
      startedAt,
      failures: [],
      repairs: [],
    },
    removedMessages: [],
  };
}
