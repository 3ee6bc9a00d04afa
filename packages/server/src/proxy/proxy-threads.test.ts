import type { AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { temporaryDirectory } from '../__fixtures__/temporary-directory.js';
import { createInstalledStrategyRegistry } from '../config/installed-strategies.js';
import { type CompactionSettings, resolveSettings } from '../config/resolve-settings.js';
import { largeAgentRequest } from '../serve/__fixtures__/large-conversation.js';
import { createProxyServer, type ProxyServer } from './proxy-server.js';
import { statusPath } from './proxy-settings.js';
import { parseUpstreams } from './upstreams.js';

// A large conversation compacted on its way through the proxy, on a compaction thread and on the event loop:
// the proxy keeps answering meanwhile only with the thread, and what goes upstream is the same.

/**
 * The artifact trail alone (a summarization with no model call): it reads every message of the history, so a
 * compaction of a large one takes the CPU for a while, as a heavy strategy does.
 */
const heavyStrategy = { name: 'summarization', options: { maxOutputTokens: 0 } };

const answer = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 0,
  model: 'gpt-4o',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Done.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
};

let upstream: TestServer;
const proxies: ProxyServer[] = [];
const lines: string[] = [];

beforeAll(async () => {
  upstream = await startTestServer();
  upstream.handle('/v1/chat/completions', () => ({ body: answer }));
});
afterAll(async () => {
  for (const proxy of proxies) {
    proxy.closeAllConnections();
    await new Promise((resolve) => proxy.close(resolve));
  }
  await upstream.close();
});

async function startProxy(compactionThreads: number): Promise<string> {
  const registry = await createInstalledStrategyRegistry();
  const resolved = resolveSettings(registry, {}, temporaryDirectory());
  const settings: CompactionSettings = {
    ...resolved,
    config: { ...resolved.config, strategy: heavyStrategy as CompactionSettings['config']['strategy'] },
    budget: { ...resolved.budget, contextWindow: 400_000, trigger: 0.2, target: 0.1 },
  };
  delete settings.config.fallback;
  const proxy = await createProxyServer({
    settings,
    registry,
    upstreams: parseUpstreams([`openai=${upstream.url}`]),
    log: (line) => lines.push(line),
    environment: {},
    compactionThreads,
  });
  proxies.push(proxy);
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

/**
 * One large request compacted through the proxy, with its status asked every few milliseconds meanwhile: how
 * many were answered before the request was, and what the upstream received.
 */
async function underProxiedCompaction(url: string, conversation: string, body: string) {
  let compacting = true;
  let answered = 0;
  const checks = (async () => {
    while (compacting) {
      const status = await fetch(`${url}${statusPath}`);
      await status.arrayBuffer();
      if (compacting) answered++;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  const before = upstream.requests.length;
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: 'Bearer client-key',
      'x-compaction-conversation': conversation,
    },
    body,
  });
  const text = await response.text();
  compacting = false;
  await checks;
  expect(response.status, text.slice(0, 300)).toBe(200);
  expect(upstream.requests).toHaveLength(before + 1);
  const sent = upstream.requests.at(-1)!.rawBody;
  // Compacted on the way.
  expect(sent.length).toBeLessThan(body.length / 2);
  return { answered, sent };
}

// Not registered on the Node 22 compatibility run: it counts what the event loop answers, the same on any
// version; the threads still compact there (workers/threaded-strategy.test.ts, serve/session-threads.test.ts).
describeOnFullRun('compaction proxy: compaction threads', () => {
  it('keep the proxy answering while a large conversation compacts, and send what the event loop sends', async () => {
    const inline = await startProxy(0);
    const threaded = await startProxy(1);
    // Many short tool rounds: the strategy goes through every message, so it outlasts counting the request, which
    // both proxies do on the event loop, in slices that answer the status. With long tool results the exact
    // counting took most of the time and the two proxies answered nearly alike.
    const body = JSON.stringify(largeAgentRequest(1_500_000, 20));
    // The first compaction of each loads the strategies (and starts the thread): measured apart.
    await underProxiedCompaction(inline, 'warm-up-inline', body);
    await underProxiedCompaction(threaded, 'warm-up-threaded', body);
    // Taken in turns, twice each, so that what else the machine runs weighs on both alike.
    let onTheEventLoop = 0;
    let onAThread = 0;
    const sent = new Set<string>();
    for (const turn of [1, 2]) {
      const inlineRun = await underProxiedCompaction(inline, `measured-${turn}`, body);
      const threadedRun = await underProxiedCompaction(threaded, `measured-${turn}`, body);
      onTheEventLoop += inlineRun.answered;
      onAThread += threadedRun.answered;
      sent.add(inlineRun.sent).add(threadedRun.sent);
    }
    // On the event loop, the strategy holds the loop until the request goes upstream; on a thread, the status
    // is answered meanwhile. Reading, counting and writing the request stay on the event loop either way, so
    // the gap is smaller than for `POST /v1/compact`. Counted, not timed, so a slow machine slows both alike.
    expect(onAThread).toBeGreaterThanOrEqual(Math.max(10, 1.5 * onTheEventLoop));
    // The same request upstream, byte for byte.
    expect(sent.size).toBe(1);
    expect(lines.filter((line) => line.includes('compaction failed'))).toEqual([]);
  }, 120_000);
});
