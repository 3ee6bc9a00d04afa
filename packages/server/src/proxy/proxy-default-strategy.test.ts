import Anthropic from '@anthropic-ai/sdk';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { CacheBilling } from './__fixtures__/cache-billing.js';
import { answerWithToolCalls, type MessageParam, runAgent } from './__fixtures__/coding-agent.js';
import { startProxy } from './__fixtures__/start-proxy.js';

// The proxy's default, with no config and no provider: old tool results shortened, then the artifact trail
// (the files the removed turns read) as a summary after the task. A coding agent that reads many small files
// is run directly and through the proxy, against an upstream that bills a prompt cache as Anthropic does. The
// Node 22 compatibility run does not register it: which strategy runs does not depend on the Node version, and
// proxy-compaction.test.ts runs the proxy there.

// The bill against no compaction grows with the window (fewer compactions, larger requests), with small steps
// where a compaction that truncation alone settles turns into one that also summarizes: from 0.55× at 10,000
// tokens to 0.68× at 16,000 with the exact counts. 11,000 sits clear of the step above 12,000.
const contextWindow = 11_000;
const turns = 60;

interface Run {
  billing: CacheBilling;
  bodies: { system?: unknown; tools?: unknown; messages: MessageParam[] }[];
}

let upstream: TestServer;
let direct: Run;
let proxied: Run;
let lines: string[];

async function run(baseURL: (upstreamUrl: string) => Promise<{ url: string; close?: () => Promise<void> }>) {
  upstream.reset();
  const billing = new CacheBilling();
  const bodies: Run['bodies'] = [];
  const answer = answerWithToolCalls(upstream);
  upstream.handle('/v1/messages', (request) => {
    const body = request.body as Run['bodies'][number];
    bodies.push(body);
    billing.bill(body);
    return answer(request);
  });
  const target = await baseURL(upstream.url);
  try {
    const client = new Anthropic({ apiKey: 'client-key', baseURL: target.url, maxRetries: 0 });
    await runAgent(client, turns);
  } finally {
    await target.close?.();
  }
  return { billing, bodies };
}

/** The paths of the files read by the tool calls of `messages`. */
function pathsRead(messages: readonly MessageParam[]): string[] {
  return messages.flatMap((message) =>
    typeof message.content === 'string'
      ? []
      : message.content.flatMap((block) =>
          block.type === 'tool_use' ? [(block.input as { path: string }).path] : [],
        ),
  );
}

describeOnFullRun('compaction proxy: the default strategy', () => {
  beforeAll(async () => {
    upstream = await startTestServer();
    direct = await run(async (url) => ({ url }));
    proxied = await run(async (url) => {
      // An empty environment: no API key, so a default that called a model could not compact.
      const proxy = await startProxy([url], { 'context-window': String(contextWindow) }, { environment: {} });
      lines = proxy.lines;
      return proxy;
    });
  }, 60_000);
  afterAll(() => upstream.close());

  it('compacts with truncation then the artifact trail, asking no provider', () => {
    const compactions = lines.filter((line) => line.includes(' tokens ('));
    expect(compactions.length).toBeGreaterThan(0);
    // Truncation alone when it reaches the target; the trail when it does not.
    expect(compactions.some((line) => line.includes('pipeline: tool-result-truncation, summarization'))).toBe(
      true,
    );
    expect(lines.filter((line) => line.includes('failed'))).toEqual([]);
  });

  it('keeps the task first and, after it, the trail of files the removed turns read', () => {
    const sent = direct.bodies.at(-1)!.messages;
    const forwarded = proxied.bodies.at(-1)!.messages;
    expect(forwarded.length).toBeLessThan(sent.length);
    expect(forwarded[0]).toEqual(sent[0]);
    // The summary stands after the task as the model's turn: the task's message stays as the agent sent it.
    expect(forwarded[1]!.role).toBe('assistant');
    const kept = new Set(pathsRead(forwarded));
    const removed = pathsRead(sent).filter((path) => !kept.has(path));
    const forwardedText = forwarded.map((message) => JSON.stringify(message.content)).join('\n');
    expect(removed.length).toBeGreaterThan(0);
    expect(removed.filter((path) => forwardedText.includes(path)).length).toBeGreaterThan(0);
  });

  it('compaction after compaction, keeps the task byte for byte and one summary per request', () => {
    const task = direct.bodies[0]!.messages[0];
    const summaries = proxied.bodies.map(
      (body) => JSON.stringify(body.messages).match(/\[Summary of \d+ earlier messages/g)?.length ?? 0,
    );
    expect(
      proxied.bodies.filter((body) => JSON.stringify(body.messages[0]) !== JSON.stringify(task)),
    ).toEqual([]);
    expect(Math.max(...summaries)).toBe(1);
  });

  it('bills at most 0.6 of no compaction with a prompt cache', () => {
    const ratio = proxied.billing.total() / direct.billing.total();
    process.stdout.write(
      `default strategy: ${turns} turns at a ${contextWindow}-token window, billed ${ratio.toFixed(3)}× of no compaction\n`,
    );
    expect(ratio).toBeLessThanOrEqual(0.6);
  });
});
