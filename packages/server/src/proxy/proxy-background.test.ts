import Anthropic from '@anthropic-ai/sdk';
import type { BackgroundSettings } from '@compaction/core';
import { compactedRequestViolations } from '@compaction/testing';
import { type RecordedRequest, startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrapeMetrics } from '../observability/__fixtures__/scraped-metrics.js';
import { startAnthropicApi } from '../serve/__fixtures__/anthropic-api.js';
import { answerWithToolCalls, runAgent, tools } from './__fixtures__/coding-agent.js';
import { startProxy } from './__fixtures__/start-proxy.js';

// A coding agent through the proxy, whose model takes a while to answer each turn, with a summarizer slower
// still. In line, the request that crosses the trigger waits for the whole summary; with background
// compaction, the summary was made while the agent's earlier turns were answered, and the request at the
// trigger waits for little of it. Every forwarded request keeps the provider's rules either way.

/** The model's time to answer each turn, in ms. */
const modelMs = 120;
/** The summarizer's time, in ms: longer than a turn, shorter than the turns between prepareAt and the trigger. */
const summaryMs = 300;
const turns = 15;

let upstream: TestServer;
let summarizer: TestServer;
beforeAll(async () => {
  upstream = await startTestServer();
  summarizer = await startAnthropicApi(() => summaryMs);
  const answer = answerWithToolCalls(upstream);
  upstream.handle('/v1/messages', (request: RecordedRequest) => ({ ...answer(request), delayMs: modelMs }));
});
afterAll(async () => {
  await upstream.close();
  await summarizer.close();
});

/**
 * Runs the agent through a proxy with `background` (or none) and returns, for each request, how long the
 * proxy held it beyond the model's own time, what the agent sent and what the upstream received.
 */
async function agentThroughProxy(background: BackgroundSettings | undefined, conversation: string) {
  const proxy = await startProxy(
    [upstream.url],
    {
      'context-window': '10000',
      strategy: 'summarization',
      provider: 'anthropic',
      model: 'claude-haiku-5-5',
      'base-url': summarizer.url,
    },
    {
      environment: { ANTHROPIC_API_KEY: 'operator-key' },
      ...(background === undefined ? {} : { background }),
    },
  );
  const held: number[] = [];
  try {
    const first = upstream.requests.length;
    const client = new Anthropic({
      apiKey: 'client-key',
      baseURL: proxy.url,
      maxRetries: 0,
      defaultHeaders: { 'x-compaction-conversation': conversation },
      fetch: async (input, init) => {
        const started = performance.now();
        const response = await fetch(input, init);
        held.push(performance.now() - started - modelMs);
        return response;
      },
    });
    const { sent } = await runAgent(client, turns);
    const received = upstream.requests.slice(first).map((request) => request.body as Record<string, unknown>);
    const metrics = await scrapeMetrics(proxy.url);
    return { held, sent, received, lines: [...proxy.lines], metrics };
  } finally {
    await proxy.close();
  }
}

/** The requests whose turns do not extend the request before: where the proxy compacted. */
function compactedAt(received: readonly Record<string, unknown>[]): number[] {
  const turnsOf = (body: Record<string, unknown> | undefined) => JSON.stringify(body?.messages).slice(0, -1);
  return received.flatMap((body, index) =>
    index > 0 && !turnsOf(body).startsWith(turnsOf(received[index - 1])) ? [index] : [],
  );
}

describe('compaction proxy: background compaction', () => {
  it('blocks the request at the trigger far less than compacting in line, and keeps every rule', async () => {
    const inLine = await agentThroughProxy(undefined, 'in-line');
    // 0.62 of the 7,000-token limit: about three turns before the trigger (0.85), above the target (0.6).
    const background = await agentThroughProxy({ prepareAt: 0.62, maximumConcurrent: 2 }, 'background');

    for (const run of [inLine, background]) {
      expect(run.received).toHaveLength(turns);
      run.received.forEach((forwarded, index) => {
        const original = {
          model: 'claude-sonnet-5-5',
          max_tokens: 1024,
          system: 'You are a careful coding agent.',
          tools,
          messages: run.sent[index],
        };
        expect(compactedRequestViolations('anthropic', original, forwarded), `request ${index}`).toEqual([]);
      });
      // Each compaction in its own request, at a trigger.
      expect(compactedAt(run.received)).toHaveLength(run.lines.length);
      expect(run.lines.length).toBeGreaterThanOrEqual(1);
    }
    const blocking = (run: typeof inLine) =>
      Math.max(...compactedAt(run.received).map((at) => run.held[at]!));
    // In line, the request at the trigger waited for the whole summary.
    expect(blocking(inLine)).toBeGreaterThanOrEqual(summaryMs * 0.9);
    expect(blocking(background)).toBeLessThan(blocking(inLine) / 2);

    expect(inLine.metrics.total('compaction_background_started_total')).toBe(0);
    const used = background.lines.length;
    // Started ahead of each trigger; the last may still wait for a trigger the agent did not reach.
    expect(background.metrics.total('compaction_background_started_total')).toBeGreaterThanOrEqual(used);
    expect(background.metrics.total('compaction_background_used_total')).toBe(used);
    expect(background.metrics.observations('compaction_background_saved_seconds')).toBe(used);
    expect(background.metrics.total('compaction_background_discarded_total')).toBe(0);
  });
});
