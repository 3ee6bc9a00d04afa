import Anthropic from '@anthropic-ai/sdk';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { answerWithToolCalls, runAgent, tools } from './__fixtures__/coding-agent.js';
import { startProxy } from './__fixtures__/start-proxy.js';

// When one turn is a large share of the window, the target leaves room for several turns of the size the
// conversation has been adding, so the compacted prefix serves several requests before the next compaction;
// and identical requests of one conversation sent together share one compaction.

let upstream: TestServer;
beforeAll(async () => {
  upstream = await startTestServer();
});
afterEach(() => upstream.reset());
afterAll(() => upstream.close());

const compactionLines = (lines: string[]) => lines.filter((line) => line.includes(' tokens ('));

describe('compaction proxy: room for several turns', () => {
  it('compacts at most every third request when each turn adds a tenth of the window', async () => {
    const proxy = await startProxy([upstream.url], { 'context-window': '60000' });
    try {
      upstream.handle('/v1/messages', answerWithToolCalls(upstream));
      const client = new Anthropic({
        apiKey: 'client-key',
        baseURL: proxy.url,
        maxRetries: 0,
        defaultHeaders: { 'x-compaction-conversation': 'large-turns' },
      });
      const turns = 36;
      // About 6k tokens per file read.
      await runAgent(client, turns, { fileLines: 480 });
      const lines = compactionLines(proxy.lines);
      expect(lines.length).toBeGreaterThanOrEqual(3);
      expect(lines.length).toBeLessThanOrEqual(Math.ceil(turns / 3));
      // Each compaction says how many requests the prefix it replaced served, and so does the status.
      expect(lines.slice(1).every((line) => /the previous prefix served \d+ requests?\)/.test(line))).toBe(
        true,
      );
      const { prefixRequests } = proxy.server.status();
      expect(prefixRequests.recent).toHaveLength(lines.length - 1);
      expect(prefixRequests.average).toBeGreaterThanOrEqual(3);
    } finally {
      await proxy.close();
    }
  });
});

describe('compaction proxy: single flight', () => {
  it('runs one compaction for identical requests of one conversation sent together, and counts it once', async () => {
    const proxy = await startProxy([upstream.url], { 'context-window': '10000' });
    try {
      upstream.handle('/v1/messages', answerWithToolCalls(upstream));
      const direct = new Anthropic({ apiKey: 'client-key', baseURL: upstream.url, maxRetries: 0 });
      // A history past the trigger, built without the proxy.
      const { history } = await runAgent(direct, 16);
      upstream.reset();
      upstream.handle('/v1/messages', answerWithToolCalls(upstream));
      const client = new Anthropic({
        apiKey: 'client-key',
        baseURL: proxy.url,
        maxRetries: 0,
        defaultHeaders: { 'x-compaction-conversation': 'together' },
      });
      const request = { model: 'claude-sonnet-5-5', max_tokens: 1024, tools, messages: history };
      await Promise.all([1, 2, 3].map(() => client.messages.create(request)));
      expect(upstream.requests).toHaveLength(3);
      const bodies = new Set(upstream.requests.map((received) => received.rawBody));
      expect(bodies.size).toBe(1);
      expect(upstream.requests[0]!.rawBody.length).toBeLessThan(JSON.stringify(request).length);
      expect(proxy.server.status().compactions).toBe(1);
      expect(compactionLines(proxy.lines)).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });
});
