import Anthropic from '@anthropic-ai/sdk';
import { type CompactionRecord, InMemoryCompactionStore, type JSONObject } from '@compaction/core';
import { createRecallTool } from '@compaction/recall';
import { recallHandlesIn } from '@compaction/strategy-kit';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { answerWithToolCalls, runAgent } from './__fixtures__/coding-agent.js';
import { recordingFetch, startProxy } from './__fixtures__/start-proxy.js';
import { PrefixMemory, storeSession } from './prefix-memory.js';
import { ProxyArchive } from './proxy-archive.js';

// The proxy archives what its compactions remove, per conversation, in its store: every handle a placeholder
// it sends upstream names is in the store with the text the client sent, and nothing else's.

let upstream: TestServer;
beforeAll(async () => {
  upstream = await startTestServer();
});
afterEach(() => upstream.reset());
afterAll(() => upstream.close());

/** The text of every tool result the client sent, as it sent it. */
function toolResultTexts(bodies: readonly string[]): Set<string> {
  const texts = new Set<string>();
  for (const body of bodies) {
    const { messages } = JSON.parse(body) as { messages: Anthropic.MessageParam[] };
    for (const message of messages) {
      if (typeof message.content === 'string') continue;
      for (const block of message.content) {
        if (block.type === 'tool_result' && typeof block.content === 'string') texts.add(block.content);
      }
    }
  }
  return texts;
}

/** Runs the scripted coding agent through the proxy as conversation `name`; returns what it sent and what went on. */
async function runConversation(url: string, name: string, fileLines: number) {
  const recorded = recordingFetch();
  const client = new Anthropic({
    apiKey: 'client-key',
    baseURL: url,
    maxRetries: 0,
    fetch: recorded.fetch,
    defaultHeaders: { 'x-compaction-conversation': name },
  });
  const from = upstream.requests.length;
  await runAgent(client, 24, { fileLines });
  const forwarded = upstream.requests.slice(from).map((request) => request.rawBody as string);
  const handles = [...new Set(forwarded.flatMap((body) => recallHandlesIn(body)))];
  return { sent: recorded.bodies, forwarded, handles };
}

const lookup = (store: InMemoryCompactionStore, conversation: string, handle: string) =>
  createRecallTool({ store, sessionId: storeSession(`named:${conversation}`) }).lookup(handle);

describe('compaction proxy: archive', () => {
  it('stores every handle its placeholders name, with the text the client sent, apart per conversation', async () => {
    upstream.handle('/v1/messages', answerWithToolCalls(upstream));
    const store = new InMemoryCompactionStore();
    const proxy = await startProxy([upstream.url], { 'context-window': '10000' }, { store });
    try {
      // Different file sizes: the two conversations' tool results, and so their handles, differ.
      const first = await runConversation(proxy.url, 'first', 36);
      const second = await runConversation(proxy.url, 'second', 40);
      for (const [name, run, other] of [
        ['first', first, 'second'],
        ['second', second, 'first'],
      ] as const) {
        expect(run.handles.length, name).toBeGreaterThan(3);
        const originals = toolResultTexts(run.sent);
        for (const handle of run.handles) {
          const item = await lookup(store, name, handle);
          expect(item, `${name}: ${handle}`).toBeDefined();
          if (item!.label.endsWith(' output')) expect(originals.has(item!.text), handle).toBe(true);
          // The other conversation's session does not hold it.
          expect(await lookup(store, other, handle), `${other}: ${handle}`).toBeUndefined();
        }
      }
      const status = proxy.server.status();
      const sessions = status.archive.conversations.map((conversation) => conversation.sessionId);
      expect(sessions).toEqual(['proxy:named:first', 'proxy:named:second']);
      const records = await store.list('proxy:named:first');
      const archived = records.flatMap((record: CompactionRecord) => record.archived ?? []);
      expect(status.archive.conversations[0]).toEqual({
        sessionId: 'proxy:named:first',
        items: archived.length,
        bytes: archived.reduce((sum, item) => sum + Buffer.byteLength(item.text), 0),
      });
      expect(status.archive.items).toBe(
        status.archive.conversations.reduce((sum, conversation) => sum + conversation.items, 0),
      );
      expect(status.archive.enabled).toBe(true);
      expect(status.storeErrors).toBe(0);
      // The line about each compaction names the session to recall from.
      expect(proxy.lines[0]).toMatch(/; \d+ items? archived in session proxy:named:first\)$/);
    } finally {
      await proxy.close();
    }
  });

  it('keeps nothing a compaction removes with archive off', async () => {
    upstream.handle('/v1/messages', answerWithToolCalls(upstream));
    const store = new InMemoryCompactionStore();
    const proxy = await startProxy([upstream.url], { 'context-window': '10000' }, { store, archive: false });
    try {
      const run = await runConversation(proxy.url, 'unarchived', 36);
      expect(proxy.lines.length).toBeGreaterThan(1);
      expect(run.handles).toEqual([]);
      expect(await store.list('proxy:named:unarchived')).toEqual([]);
      // Only the compacted prefix is kept, for the conversation's next requests.
      expect(Object.keys((await store.getSessionMetadata('proxy:named:unarchived')) ?? {})).toEqual([
        'proxy',
      ]);
      expect(proxy.server.status().archive).toEqual({
        enabled: false,
        items: 0,
        bytes: 0,
        conversations: [],
      });
    } finally {
      await proxy.close();
    }
  });

  it('forwards the request compacted when the store refuses every write, and reports it', async () => {
    upstream.handle('/v1/messages', answerWithToolCalls(upstream));
    const store = new RefusingStore();
    const proxy = await startProxy([upstream.url], { 'context-window': '10000' }, { store });
    try {
      const run = await runConversation(proxy.url, 'refused', 36);
      expect(run.forwarded).toHaveLength(24);
      // Compacted: the requests the client sent last are shortened on their way.
      expect(run.forwarded.at(-1)!.length).toBeLessThan(run.sent.at(-1)!.length);
      expect(run.handles.length).toBeGreaterThan(0);
      const status = proxy.server.status();
      expect(status.compactions).toBeGreaterThan(1);
      expect(status.storeErrors).toBeGreaterThanOrEqual(status.compactions);
      expect(status.archive.items).toBe(0);
      expect(proxy.lines.join('\n')).toContain('could not archive');
      expect(proxy.lines.join('\n')).toMatch(
        /not archived, the store refused them \(session proxy:named:refused\)/,
      );
    } finally {
      await proxy.close();
    }
  });
});

describe('proxy archive counts', () => {
  it('drops a conversation deleted by retention from the counts, and the store drops its items', async () => {
    const store = new InMemoryCompactionStore();
    const archive = new ProxyArchive(store, () => undefined);
    const forgotten: string[] = [];
    const memory = new PrefixMemory(store, undefined, {
      forgotten: (sessionId) => {
        forgotten.push(sessionId);
        archive.forget(sessionId);
      },
    });
    await archive.store.append(archivingRecord(storeSession('gone'), 'é'));
    await archive.store.append(archivingRecord(storeSession('kept'), 'text'));
    expect(archive.status()).toMatchObject({ items: 2, bytes: 6 });
    await memory.forget('gone');
    expect(forgotten).toEqual([storeSession('gone')]);
    expect(await store.list(storeSession('gone'))).toEqual([]);
    expect(archive.status()).toEqual({
      enabled: true,
      items: 1,
      bytes: 4,
      conversations: [{ sessionId: storeSession('kept'), items: 1, bytes: 4 }],
    });
  });
});

/** A record of one archived item holding `text`. */
function archivingRecord(sessionId: string, text: string): CompactionRecord {
  return {
    event: {
      id: `event-${sessionId}`,
      sessionId,
      round: 1,
      trigger: 'auto',
      strategy: 'tool-result-truncation',
      usedFallback: false,
      tokensBefore: 10,
      tokensAfter: 5,
      messagesBefore: 2,
      messagesAfter: 2,
      durationMs: 1,
      startedAt: new Date(0).toISOString(),
      failures: [],
      repairs: [],
    },
    removedMessages: [],
    archived: [{ handle: 'h1', label: 'bash output', text }],
  };
}

/** A store that refuses every write, as a full disk or a database gone away would. */
class RefusingStore extends InMemoryCompactionStore {
  override async append(): Promise<void> {
    throw new Error('disk full');
  }
  override async updateSessionMetadata(_sessionId: string, _metadata: JSONObject): Promise<JSONObject> {
    throw new Error('disk full');
  }
}
