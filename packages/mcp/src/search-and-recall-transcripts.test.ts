import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ArchivedItem,
  type CompactionStore,
  InMemoryCompactionStore,
  type Message,
} from '@compaction/core';
import { createSqliteCompactionStore } from '@compaction/store-sqlite';
import { generateCodingHistory } from '@compaction/testing';
import {
  loadTranscripts,
  missingTranscriptsMessage,
  transcriptsDirectory,
} from '@compaction/testing/transcripts';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { archiveConversation, archivingCompactor } from './__fixtures__/archived-conversations.js';
import { callTool, connectClient } from './__fixtures__/connect-client.js';

// What a model does with the tools after a real compaction: recall every archived text exactly, and find an
// archived text again by a line it remembers. Both on the in-memory store (search by reading every item) and
// the SQLite store (its own index), on generated history and on the shared SWE-bench runs.

const folders: string[] = [];
const stores: CompactionStore[] = [];

afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const storeKinds = {
  memory: async () => new InMemoryCompactionStore(),
  sqlite: async () => {
    const folder = await mkdtemp(join(tmpdir(), 'compaction-mcp-'));
    folders.push(folder);
    return createSqliteCompactionStore({ path: join(folder, 'archive.sqlite') });
  },
};

/** Every archived item of every session, each once (a handle archived twice is one text). */
async function archivedItems(store: CompactionStore): Promise<Map<string, ArchivedItem>> {
  const items = new Map<string, ArchivedItem>();
  for (const sessionId of await store.sessions()) {
    for (const record of await store.list(sessionId)) {
      for (const item of record.archived ?? []) items.set(item.handle, item);
    }
  }
  return items;
}

/**
 * Items with a line that no other item contains, each with that line: what a model would remember of it.
 * Lines of several words without double quotes or runs of spaces, so the line is one phrase as written.
 */
function distinctiveLines(
  items: ReadonlyMap<string, ArchivedItem>,
): Array<{ item: ArchivedItem; line: string }> {
  const texts = [...items.values()].map((item) => ({ item, lower: item.text.toLowerCase() }));
  const found: Array<{ item: ArchivedItem; line: string }> = [];
  for (const { item } of texts) {
    const line = item.text
      .split('\n')
      .map((candidate) => candidate.trim())
      .find(
        (candidate) =>
          candidate.length >= 25 &&
          candidate.length <= 200 &&
          /^\S+( \S+){2,}$/.test(candidate) &&
          !candidate.includes('"') &&
          texts.every((other) => other.item === item || !other.lower.includes(candidate.toLowerCase())),
      );
    if (line !== undefined) found.push({ item, line });
  }
  return found;
}

/** Recalls the items (forty sampled when there are more) and searches for the distinctive line of ten sampled ones; returns how many came first. */
async function checkRecallAndSearch(
  client: Client,
  items: ReadonlyMap<string, ArchivedItem>,
): Promise<number> {
  // Forty at most: each recall without a session reads every session's records.
  const recalled = items.size <= 40 ? [...items.values()] : fc.sample(fc.constantFrom(...items.values()), 40);
  for (const item of recalled) {
    expect(await callTool(client, 'recall', { handle: item.handle })).toEqual({
      text: item.text,
      isError: false,
    });
  }
  const candidates = distinctiveLines(items);
  expect(candidates.length, 'items with a distinctive line').toBeGreaterThanOrEqual(10);
  const [sampled] = fc.sample(fc.shuffledSubarray(candidates, { minLength: 10, maxLength: 10 }), 1);
  let first = 0;
  for (const { item, line } of sampled!) {
    const { text, isError } = await callTool(client, 'search', { query: `"${line}"`, limit: 5 });
    expect(isError, text).toBe(false);
    if (text.split('\n')[1]?.startsWith(`1. recall "${item.handle}"`)) first++;
  }
  return first;
}

/** Generated coding history whose tool results each end with a line of words fast-check drew. */
function historyWithDistinctiveLines(): Message[] {
  const history = generateCodingHistory({ messages: 160, seed: 3 });
  const results = history.flatMap((message) => (message.role === 'tool' ? message.content : []));
  const word = fc.stringMatching(/^[a-z]{6,10}$/);
  const [words] = fc.sample(
    fc.uniqueArray(word, { minLength: results.length * 2, maxLength: results.length * 2 }),
    1,
  );
  let next = 0;
  return history.map((message) =>
    message.role !== 'tool'
      ? message
      : {
          ...message,
          content: message.content.map((part) => ({
            ...part,
            output: `${part.output}\nFAIL tests/${words![next++]}.test.ts > rejects ${words![next++]} input`,
          })),
        },
  );
}

describe.each(Object.keys(storeKinds) as Array<keyof typeof storeKinds>)('on the %s store', (kind) => {
  it('recalls every archived text exactly and finds an item by its distinctive line first', async () => {
    const store = await storeKinds[kind]();
    stores.push(store);
    await archiveConversation(store, historyWithDistinctiveLines(), 'generated');
    const client = await connectClient({ store });
    const items = await archivedItems(store);
    expect(await checkRecallAndSearch(client, items)).toBeGreaterThanOrEqual(9);
    await client.close();
  });

  const directory = transcriptsDirectory();
  it.skipIf(directory === undefined)(
    `does the same on the SWE-bench runs (${directory ?? missingTranscriptsMessage})`,
    async () => {
      const store = await storeKinds[kind]();
      stores.push(store);
      const transcripts = loadTranscripts({
        directory: directory!,
        sources: ['mini-swe-agent', 'swe-agent'],
      });
      expect(transcripts.length).toBeGreaterThan(1);
      for (const transcript of transcripts) {
        const characters = JSON.stringify(transcript.messages).length;
        await archiveConversation(
          store,
          transcript.messages,
          transcript.name,
          archivingCompactor(store, Math.ceil(characters / 2)),
        );
      }
      const client = await connectClient({ store });
      expect(await checkRecallAndSearch(client, await archivedItems(store))).toBeGreaterThanOrEqual(9);
      await client.close();
    },
  );
});
