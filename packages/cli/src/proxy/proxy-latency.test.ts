import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { type RunningProxy, startProxy } from './__fixtures__/start-proxy.js';

// The proxy's added latency on loopback, in a bounded run: the same requests sent directly and through the
// proxy, one at a time. Printed, not asserted: timings depend on the machine and what else runs on it.

let upstream: TestServer;
let proxy: RunningProxy;
beforeAll(async () => {
  upstream = await startTestServer();
  upstream.handle('/v1/messages', () => ({
    body: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-5-5',
      content: [{ type: 'text', text: 'Done.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 2 },
    },
  }));
  proxy = await startProxy([upstream.url], { 'context-window': '200000' });
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

/** A request of `turns` exchanges, each about 250 tokens, under the trigger. */
function conversation(turns: number): string {
  const messages = Array.from({ length: turns }, (_, turn) => [
    { role: 'user', content: `Question ${turn}: ${'what does this function return? '.repeat(30)}` },
    { role: 'assistant', content: `Answer ${turn}: ${'it returns the rounded value. '.repeat(30)}` },
  ]).flat();
  messages.push({ role: 'user', content: 'Thanks, continue.' });
  return JSON.stringify({ model: 'claude-sonnet-5-5', max_tokens: 1024, messages });
}

const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;

async function timings(url: string, body: string, count: number): Promise<number[]> {
  const durations: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    const response = await fetch(`${url}/v1/messages`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': 'latency-key',
        'anthropic-version': '2023-06-01',
      },
      body,
    });
    await response.text();
    expect(response.status).toBe(200);
    durations.push(performance.now() - started);
  }
  return durations.sort((first, second) => first - second);
}

// The Node 22 compatibility run (scripts/test-node-22.sh) does not register these measurements (1,000
// requests each): they report latency on Node 20, and the proxy's pass-through still runs on Node 22 in
// proxy-pass-through.test.ts.
describeOnFullRun('compaction proxy: added latency on loopback', () => {
  it.each([
    ['a one-message request', 1],
    ['a 100-exchange history (about 50k tokens, under the trigger)', 100],
  ])('measures %s', async (label, turns) => {
    const body = conversation(turns);
    const count = 200;
    // Warm-up: connections, the converters' first load, JIT.
    await timings(upstream.url, body, 20);
    await timings(proxy.url, body, 20);
    const direct = await timings(upstream.url, body, count);
    const proxied = await timings(proxy.url, body, count);
    const format = (value: number) => `${value.toFixed(2)} ms`;
    process.stdout.write(
      `latency, ${label} (${body.length} bytes, ${count} requests): direct p50 ${format(percentile(direct, 0.5))}, ` +
        `p99 ${format(percentile(direct, 0.99))}; through the proxy p50 ${format(percentile(proxied, 0.5))}, ` +
        `p99 ${format(percentile(proxied, 0.99))}; added p50 ${format(percentile(proxied, 0.5) - percentile(direct, 0.5))}, ` +
        `p99 ${format(percentile(proxied, 0.99) - percentile(direct, 0.99))}\n`,
    );
    expect(proxied).toHaveLength(count);
  });
});
