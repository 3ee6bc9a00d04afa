import type { AddressInfo } from 'node:net';
import {
  type CompactionStore,
  InMemoryCompactionStore,
  type JSONObject,
  type Message,
} from '@compaction/core';
import { afterEach, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../__fixtures__/temporary-directory.js';
import { createInstalledStrategyRegistry } from '../config/installed-strategies.js';
import { resolveSettings } from '../config/resolve-settings.js';
import { serveClient, waitFor } from './__fixtures__/serve-client.js';
import { type CompactionServer, createCompactionHttpServer } from './compaction-http-server.js';

// An append cut off at the shutdown timeout: what the client is told and what the store keeps must agree, so
// that a client retrying an append whose connection was closed does not apply it twice.

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A store whose session writes take `delayMs` once `slow` is set, counting the writes under way. */
class SlowStore extends InMemoryCompactionStore {
  slow = false;
  writesStarted = 0;
  writesUnderWay = 0;
  constructor(private readonly delayMs: number) {
    super();
  }
  override async updateSessionMetadata(sessionId: string, metadata: JSONObject): Promise<JSONObject> {
    if (!this.slow) return super.updateSessionMetadata(sessionId, metadata);
    this.writesStarted++;
    this.writesUnderWay++;
    try {
      await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      return await super.updateSessionMetadata(sessionId, metadata);
    } finally {
      this.writesUnderWay--;
    }
  }
}

async function startServer(store: CompactionStore): Promise<{ server: CompactionServer; url: string }> {
  const registry = await createInstalledStrategyRegistry();
  const settings = resolveSettings(registry, { strategy: 'sliding-window' }, temporaryDirectory());
  const server = createCompactionHttpServer({ settings, registry, store });
  await server.restored;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => server.shutdown(100));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const text = (value: string): Message => ({ role: 'user', content: [{ type: 'text', text: value }] });

/** How many of the session's stored messages say `value`. */
async function storedCount(store: CompactionStore, id: string, value: string): Promise<number> {
  const metadata = await store.getSessionMetadata(id);
  const messages = (metadata?.serveMessages ?? []) as unknown as Message[];
  return messages.filter((message) => JSON.stringify(message.content).includes(value)).length;
}

describe('compaction serve: an append cut off by the shutdown timeout', () => {
  it('is finished and answered when its write was under way, never kept behind a closed connection', async () => {
    const store = new SlowStore(1500);
    const { server, url } = await startServer(store);
    const call = serveClient(url);
    const created = await call('/v1/sessions', { method: 'POST', json: { conversation: [text('start')] } });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };

    store.slow = true;
    const append = call(`/v1/sessions/${id}/messages`, {
      method: 'POST',
      json: { messages: [text('appended once')] },
    }).then(
      (response) => response.status,
      () => 'connection closed' as const,
    );
    await waitFor(() => store.writesStarted === 1, 'the append to start writing');
    await server.shutdown(100);
    const outcome = await append;
    // The write under way finishes now at the latest: the store then holds what it will keep.
    await waitFor(() => store.writesUnderWay === 0, 'the slow write to end');

    const kept = await storedCount(store, id, 'appended once');
    // Told 200 and kept once; or told nothing (or an error) and not kept, so a retry applies it once.
    expect({ outcome, kept }).toEqual({ outcome: 200, kept: 1 });
  });

  it('writes nothing once cut off before its write began, so a retry applies it once', async () => {
    const store = new SlowStore(1500);
    const { server, url } = await startServer(store);
    const call = serveClient(url);
    const created = await call('/v1/sessions', { method: 'POST', json: { conversation: [text('start')] } });
    const { id } = (await created.json()) as { id: string };

    // The first append's write holds the session; the second waits for it, past the timeout.
    store.slow = true;
    const outcomes = ['first', 'second'].map((name) =>
      call(`/v1/sessions/${id}/messages`, {
        method: 'POST',
        json: { messages: [text(`${name} append`)] },
      }).then(
        (response) => response.status,
        () => 'connection closed' as const,
      ),
    );
    await waitFor(() => store.writesStarted === 1, 'the first append to start writing');
    await server.shutdown(100);
    const [first, second] = await Promise.all(outcomes);
    await waitFor(() => store.writesUnderWay === 0, 'the slow writes to end');

    expect({ first, kept: await storedCount(store, id, 'first append') }).toEqual({ first: 200, kept: 1 });
    const secondKept = await storedCount(store, id, 'second append');
    expect(
      second === 200 ? secondKept === 1 : secondKept === 0,
      `second: ${second}, kept ${secondKept}`,
    ).toBe(true);
  });
});
