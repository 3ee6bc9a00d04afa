import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { itOnFullRun } from '../__fixtures__/full-run.js';
import { temporaryDirectory } from '../__fixtures__/temporary-directory.js';
import { createInstalledStrategyRegistry } from '../config/installed-strategies.js';
import { type CompactionSettings, resolveSettings } from '../config/resolve-settings.js';
import { largeAgentRequest } from './__fixtures__/large-conversation.js';
import { type CompactionServer, createCompactionHttpServer } from './compaction-http-server.js';

const running: CompactionServer[] = [];

/** A server whose sessions hold a large conversation without compacting it (a 2M-token window). */
async function startServer(compactionThreads: number) {
  const registry = await createInstalledStrategyRegistry();
  const resolved = resolveSettings(registry, {}, temporaryDirectory());
  const settings: CompactionSettings = {
    ...resolved,
    budget: { ...resolved.budget, contextWindow: 2_000_000 },
  };
  const server = createCompactionHttpServer({ settings, registry, compactionThreads });
  running.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterAll(async () => {
  await Promise.all(running.map((server) => server.shutdown(1000)));
});

const post = (url: string, body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** An answer's text without what differs from server to server and run to run: ids and times. */
const comparable = (text: string) =>
  text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'id')
    .replace(/"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z"/g, '"time"');

/** The answers to a session's creation, read, append and read again, as text. */
async function sessionAnswers(url: string, request: { model: string; messages: unknown[] }) {
  // Chat Completions in, answered as Chat Completions: the request's own fields kept around it.
  const chat = await post(`${url}/v1/sessions`, {
    conversation: { ...request, messages: request.messages.slice(0, -1) },
  });
  const chatText = await chat.text();
  const { id } = JSON.parse(chatText) as { id: string };
  const read = await fetch(`${url}/v1/sessions/${id}`);
  const appended = await post(`${url}/v1/sessions/${id}/messages`, { messages: request.messages.slice(-1) });
  const statuses = [chat.status, read.status, appended.status];
  return {
    statuses,
    texts: [chatText, await read.text(), await appended.text()].map(comparable),
  };
}

describe("sessions' answers written on compaction threads", () => {
  it('are byte for byte those written on the event loop', async () => {
    const request = largeAgentRequest(400_000);
    const inline = await sessionAnswers(await startServer(0), request);
    const threaded = await sessionAnswers(await startServer(1), request);
    expect(inline.statuses).toEqual([201, 200, 200]);
    expect(threaded.statuses).toEqual(inline.statuses);
    expect(threaded.texts).toEqual(inline.texts);
  }, 120_000);

  // Not registered on the Node 22 compatibility run: it measures the event loop, the same on any version; the
  // answers are compared on it by the test above.
  itOnFullRun(
    'leave the event loop free while a large conversation is written',
    async () => {
      const { messages } = largeAgentRequest(3_000_000);
      const blockedMs = async (url: string) => {
        const created = await post(`${url}/v1/sessions`, { conversation: { messages } });
        const { id } = (await created.json()) as { id: string };
        // Warmed up: the thread started, the converters loaded.
        await (await fetch(`${url}/v1/sessions/${id}`)).arrayBuffer();
        // The time the loop was held in stretches of more than 50 ms: a timer of 5 ms late by that much.
        let blocked = 0;
        let last = performance.now();
        const ticks = setInterval(() => {
          const now = performance.now();
          if (now - last > 50) blocked += now - last;
          last = now;
        }, 5);
        for (let round = 0; round < 3; round++) await (await fetch(`${url}/v1/sessions/${id}`)).arrayBuffer();
        clearInterval(ticks);
        return blocked;
      };
      const onTheEventLoop = await blockedMs(await startServer(0));
      const onAThread = await blockedMs(await startServer(1));
      // Writing 3 MB holds the event loop for a hundred milliseconds or more inline; on a thread only encoding
      // the history for it does, much shorter. Compared with each other, so a slow machine slows both alike.
      expect(onTheEventLoop).toBeGreaterThan(0);
      expect(onAThread).toBeLessThan(onTheEventLoop / 2);
    },
    120_000,
  );
});
