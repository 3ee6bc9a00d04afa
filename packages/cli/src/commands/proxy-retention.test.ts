import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { createSqliteCompactionStore } from '@compaction/store-sqlite';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerWithToolCalls, runAgent } from '../../../server/src/proxy/__fixtures__/coding-agent.js';
import { runBinary, temporaryDirectory } from '../__fixtures__/run-binary.js';
import { startServer } from '../__fixtures__/start-server.js';

// `compaction proxy --retention`: a conversation idle past the retention is deleted whole, its compaction records
// with the messages they removed included, from the store and from the proxy's memory.

let upstream: TestServer;
beforeAll(async () => {
  upstream = await startTestServer();
});
afterAll(() => upstream.close());

describe('compaction proxy --retention', () => {
  it('deletes a conversation past the retention from the store and from memory', async () => {
    const directory = temporaryDirectory();
    upstream.handle('/v1/messages', answerWithToolCalls(upstream));
    const proxy = await startServer(
      ['--upstream', `anthropic=${upstream.url}`, '--context-window', '10000', '--retention', '1s'],
      {},
      directory,
      'proxy',
    );
    const store = createSqliteCompactionStore({ path: join(directory, '.compaction', 'sessions.sqlite') });
    try {
      // A session of `compaction serve` in the same store is not the proxy's to sweep.
      await store.updateSessionMetadata('serve-session', { title: 'not the proxy’s' });
      const client = new Anthropic({ apiKey: 'client-key', baseURL: proxy.url, maxRetries: 0 });
      await runAgent(client, 14);
      expect(proxy.stderr()).toMatch(/compaction proxy: conversation [0-9a-f]{8}: \d+ → \d+ tokens/);
      const status = async () =>
        (await (await fetch(`${proxy.url}/compaction/status`)).json()) as Record<string, number>;
      await expect
        .poll(() => store.sessions(), { timeout: 10_000, interval: 200 })
        .toEqual(['serve-session']);
      expect((await status()).conversations).toBe(0);
    } finally {
      await store.close();
      expect(await proxy.stop()).toBe(0);
    }
  });

  it('refuses a retention without a store', async () => {
    const refused = await runBinary(['proxy', '--store', 'memory', '--retention', '30d']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--retention and --retention-size need a store');
  });
});
