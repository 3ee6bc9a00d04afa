import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { itOnFullRun } from '../__fixtures__/full-run.js';
import { temporaryDirectory } from '../__fixtures__/temporary-directory.js';
import { createInstalledStrategyRegistry } from '../config/installed-strategies.js';
import { type CompactionSettings, resolveSettings } from '../config/resolve-settings.js';
import { largeAgentRequest } from './__fixtures__/large-conversation.js';
import { type CompactionServer, createCompactionHttpServer } from './compaction-http-server.js';

const running: CompactionServer[] = [];

/**
 * The artifact trail alone (a summarization with no model call): it reads every message of the history, so a
 * compaction of a large one takes the CPU for a while, as a heavy strategy does.
 */
const heavyStrategy = { name: 'summarization', options: { maxOutputTokens: 0 } };

/**
 * A server whose sessions compact with `strategy`; `manualOnly`, only when asked (no trigger), to a tenth of
 * a 400k-token window, so a large session is created whole and compacted by a request of the test.
 */
async function startServer(compactionThreads: number, strategy: unknown = heavyStrategy, manualOnly = true) {
  const registry = await createInstalledStrategyRegistry();
  const resolved = resolveSettings(registry, {}, temporaryDirectory());
  const settings: CompactionSettings = {
    ...resolved,
    config: { ...resolved.config, strategy: strategy as CompactionSettings['config']['strategy'] },
    ...(manualOnly
      ? { budget: { ...resolved.budget, contextWindow: 400_000, trigger: false, target: 0.1 } }
      : {}),
  };
  delete settings.config.fallback;
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

/** A session holding a large conversation, under its trigger (created without compacting). */
async function largeSession(url: string, conversation: unknown): Promise<string> {
  const created = await post(`${url}/v1/sessions`, { conversation });
  const answer = (await created.json()) as { id: string; compacted: boolean };
  expect(created.status).toBe(201);
  expect(answer.compacted).toBe(false);
  return answer.id;
}

/** A manual compaction of a session, with `/v1/health` asked every few milliseconds meanwhile. */
async function underSessionCompaction(url: string, id: string) {
  let compacting = true;
  let answered = 0;
  const checks = (async () => {
    while (compacting) {
      const health = await fetch(`${url}/v1/health`);
      await health.arrayBuffer();
      if (compacting) answered++;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  const response = await post(`${url}/v1/sessions/${id}/compact`, {});
  const answer = (await response.json()) as Record<string, unknown>;
  compacting = false;
  await checks;
  expect(response.status, JSON.stringify(answer).slice(0, 300)).toBe(200);
  expect(answer.compacted).toBe(true);
  return { answered, answer };
}

/** An answer without what differs from server to server and run to run: ids, times, durations. */
function comparable(answer: Record<string, unknown>) {
  return JSON.parse(
    JSON.stringify(answer)
      .replace(/"durationMs":[0-9.e-]+/g, '"durationMs":0')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'id')
      .replace(/"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z"/g, '"time"'),
  );
}

describe('session compactions on compaction threads', () => {
  // A thread that cannot build a strategy makes the server compact on its event loop and say so: these tests
  // must not pass that way.
  let stderr: MockInstance<typeof process.stderr.write>;
  beforeEach(() => {
    stderr = vi.spyOn(process.stderr, 'write');
  });
  afterEach(() => {
    const written = stderr.mock.calls.map(([text]) => String(text)).join('');
    stderr.mockRestore();
    expect(written).not.toContain('compacting on the event loop');
  });

  // Not registered on the Node 22 compatibility run: it counts what the event loop answers, the same on any
  // version; the threads still compact there (the test below, and workers/threaded-strategy.test.ts).
  itOnFullRun(
    'keep /v1/health answering while a large session compacts, and answer as the event loop does',
    async () => {
      const conversation = largeAgentRequest(3_000_000);
      const inline = await startServer(0);
      const threaded = await startServer(1);
      // The first compaction of each loads the strategies (and starts the thread): measured apart.
      for (const url of [inline, threaded])
        await underSessionCompaction(url, await largeSession(url, conversation));
      const onTheEventLoop = await underSessionCompaction(inline, await largeSession(inline, conversation));
      const onAThread = await underSessionCompaction(threaded, await largeSession(threaded, conversation));
      // On the event loop, the strategy holds the loop until the answer; on a thread, health is answered all
      // along. Counted, not timed, so a slow machine slows both alike.
      expect(onAThread.answered).toBeGreaterThanOrEqual(Math.max(10, 3 * onTheEventLoop.answered));
      expect(comparable(onAThread.answer)).toEqual(comparable(onTheEventLoop.answer));
    },
    120_000,
  );

  it('answer appends that compact, with the default strategies, as the event loop does', async () => {
    const strategy = ['tool-result-truncation', 'sliding-window'];
    const inline = await startServer(0, strategy, false);
    const threaded = await startServer(1, strategy, false);
    const { messages } = largeAgentRequest(400_000);
    const answers = [];
    for (const url of [inline, threaded]) {
      const created = await post(`${url}/v1/sessions`, { conversation: { messages: messages.slice(0, 2) } });
      const { id } = (await created.json()) as { id: string };
      // A trigger of a few tokens: the append compacts the whole large history.
      const appended = await post(`${url}/v1/sessions/${id}/messages`, { messages: messages.slice(2) });
      expect(appended.status).toBe(200);
      const compacted = await post(`${url}/v1/sessions/${id}/compact`, { instructions: 'keep the plan' });
      answers.push([await appended.json(), await compacted.json()]);
    }
    const [fromTheEventLoop, fromAThread] = answers.map((pair) =>
      pair.map((answer) => comparable(answer as Record<string, unknown>)),
    );
    expect(fromAThread).toEqual(fromTheEventLoop);
  }, 120_000);
});
