import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  type MockInstance,
  vi,
} from 'vitest';
import { temporaryDirectory } from '../__fixtures__/temporary-directory.js';
import { createInstalledStrategyRegistry } from '../config/installed-strategies.js';
import { resolveSettings } from '../config/resolve-settings.js';
import type { RecordedAnswer } from '../workers/replayed-exchange.js';
import { WorkerPool } from '../workers/worker-pool.js';
import { largeAgentRequest } from './__fixtures__/large-conversation.js';
import { threadedCompactRoute } from './compact-route.js';
import { type CompactionServer, createCompactionHttpServer } from './compaction-http-server.js';
import { CompactionLimiter } from './compaction-limiter.js';
import { sendError } from './json-response.js';

const running: CompactionServer[] = [];

async function startServer(settings: { compactionThreads: number; threadedBodyBytes?: number }) {
  const registry = await createInstalledStrategyRegistry();
  const server = createCompactionHttpServer({
    settings: resolveSettings(registry, {}, temporaryDirectory()),
    registry,
    ...settings,
  });
  running.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterAll(async () => {
  await Promise.all(running.map((server) => server.shutdown(1000)));
});

const post = (url: string, body: string) =>
  fetch(`${url}/v1/compact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

/**
 * One large compaction, with `/v1/health` asked every few milliseconds meanwhile: how many health checks were
 * answered before the compaction was.
 */
async function underLargeCompaction(url: string, body: string): Promise<number> {
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
  const response = await post(url, body);
  const text = await response.text();
  compacting = false;
  await checks;
  expect(response.status, text.slice(0, 300)).toBe(200);
  return answered;
}

describe('compaction threads', () => {
  // A thread that cannot compact what the server can makes the server compact on its event loop and say so:
  // these tests must not pass that way.
  let stderr: MockInstance<typeof process.stderr.write>;
  beforeEach(() => {
    stderr = vi.spyOn(process.stderr, 'write');
  });
  afterEach(() => {
    const written = stderr.mock.calls.map(([text]) => String(text)).join('');
    stderr.mockRestore();
    expect(written).not.toContain('compacting on the event loop');
  });

  const largeBody = JSON.stringify({ conversation: largeAgentRequest(6_000_000) });

  it('keep /v1/health answering while a large /v1/compact runs', async () => {
    const inline = await startServer({ compactionThreads: 0 });
    const threaded = await startServer({ compactionThreads: 1 });
    // The first request of each loads the strategies (and starts the thread): measured apart.
    for (const url of [inline, threaded]) expect((await post(url, largeBody)).status).toBe(200);
    const onTheEventLoop = await underLargeCompaction(inline, largeBody);
    const onAThread = await underLargeCompaction(threaded, largeBody);
    // On the event loop, health is answered while the body arrives and between the slices its conversion is
    // cut into, but not while the strategy runs: that holds the loop until the answer. On a thread, it is
    // answered all along (every 5 ms or so, through a compaction of half a second or more). Counted, not
    // timed, so a slow machine slows both alike; how long a check waits in each is measured by bench:serve,
    // since the ratio of the counts moves with the machine's load (12 against 32 on a loaded 2-core run).
    // What a thread adds is the checks answered while the strategy runs: ten at least.
    expect(onAThread).toBeGreaterThanOrEqual(onTheEventLoop + 10);
  }, 120_000);

  it('answer byte for byte as the event loop does', async () => {
    const inline = await startServer({ compactionThreads: 0 });
    const threaded = await startServer({ compactionThreads: 1, threadedBodyBytes: 0 });
    const conversation = largeAgentRequest(200_000);
    const bodies = [
      JSON.stringify({ conversation }),
      JSON.stringify({ conversation, config: { strategy: 'sliding-window' }, instructions: 'keep the plan' }),
      JSON.stringify({ conversation: conversation.messages, format: 'openai-chat' }),
      JSON.stringify({ conversation: conversation.messages.slice(0, 2) }),
      JSON.stringify({ conversation, config: { strategy: 'pruning' } }),
      JSON.stringify({ conversation, format: 'anthropic' }),
      JSON.stringify({ messages: conversation.messages }),
      JSON.stringify({ conversation: { messages: [{ role: 'wizard', content: 'hi' }] } }),
      JSON.stringify({}),
      '{"conversation": [',
      '',
    ];
    for (const body of bodies) {
      const [expected, actual] = await Promise.all([post(inline, body), post(threaded, body)]);
      expect(actual.status).toBe(expected.status);
      expect(actual.headers.get('content-type')).toBe(expected.headers.get('content-type'));
      // The time a compaction took is the one field that differs from run to run.
      const timeless = (text: string) => text.replace(/"durationMs":[0-9.e-]+/g, '"durationMs":0');
      expect(timeless(await actual.text())).toBe(timeless(await expected.text()));
    }
  }, 120_000);
});

describe('a compaction thread that dies', () => {
  let url: string;
  let server: Server;
  let pool: WorkerPool<unknown, RecordedAnswer>;

  beforeAll(async () => {
    pool = new WorkerPool({
      script: new URL('../__fixtures__/scripted-worker.mjs', import.meta.url),
      size: 1,
    });
    const route = threadedCompactRoute({
      inline: async () => {
        throw new Error('every request goes to the thread here');
      },
      pool: pool as WorkerPool<never, RecordedAnswer>,
      limiter: new CompactionLimiter(2, 2),
      maxBodyBytes: 1024,
      minimumBodyBytes: 0,
    });
    server = createServer((request, response) => {
      route(request, response, {}).catch((error: unknown) => sendError(request, response, error));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await pool.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('answers its requests with a 500 and a stable code, and the next request gets a new thread', async () => {
    for (const action of ['exit', 'throw']) {
      const failed = await post(url, JSON.stringify({ action }));
      expect(failed.status).toBe(500);
      expect(((await failed.json()) as { error: { code: string } }).error.code).toBe(
        'compaction-worker-failed',
      );
      const next = await post(url, JSON.stringify({ action: 'answer', value: action }));
      expect(next.status).toBe(200);
      expect(await next.json()).toEqual({ answered: action });
    }
  });
});
