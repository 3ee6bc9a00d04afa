import Anthropic from '@anthropic-ai/sdk';
import { compactedRequestViolations } from '@compaction/testing';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicApi } from '../serve/__fixtures__/anthropic-api.js';
import { answerWithToolCalls, runAgent, tools } from './__fixtures__/coding-agent.js';
import { type RunningProxy, recordingFetch, startProxy } from './__fixtures__/start-proxy.js';

// A coding agent on the real Anthropic SDK, through the proxy: its history crosses the trigger again and again.
// What the upstream receives is compacted once per trigger, and every request between two compactions starts
// with the same compacted turns, byte for byte, so the provider's prompt cache keeps them.

let upstream: TestServer;
beforeAll(async () => {
  upstream = await startTestServer();
});
afterEach(() => upstream.reset());
afterAll(() => upstream.close());

const startsWith = (list: unknown[], prefix: unknown[]) =>
  prefix.length <= list.length && JSON.stringify(list.slice(0, prefix.length)) === JSON.stringify(prefix);

describe('compaction proxy: compaction', () => {
  let proxy: RunningProxy;
  beforeAll(async () => {
    proxy = await startProxy([upstream.url], { 'context-window': '10000' });
  });
  afterAll(() => proxy.close());

  it('compacts a long conversation once per trigger and keeps the compacted prefix between compactions', async () => {
    upstream.handle('/v1/messages', answerWithToolCalls(upstream));
    const recorded = recordingFetch();
    const client = new Anthropic({
      apiKey: 'client-key',
      baseURL: proxy.url,
      maxRetries: 0,
      fetch: recorded.fetch,
    });
    const turns = 30;
    const { sent } = await runAgent(client, turns);
    const received = upstream.requests.map(
      (request) => request.body as { system: unknown; messages: unknown[] },
    );
    expect(received).toHaveLength(turns);

    // A request that does not extend the previous one's turns is where the proxy compacted.
    const compactedAt: number[] = [];
    for (let index = 1; index < turns; index++) {
      const previous = received[index - 1]!;
      const current = received[index]!;
      if (startsWith(current.messages, previous.messages)) {
        expect(current.system).toEqual(previous.system);
        // Byte for byte: the previous request's turns, as serialized, open this request's list.
        const previousTurns = JSON.stringify(previous.messages).slice(0, -1);
        expect(upstream.requests[index]!.rawBody).toContain(previousTurns);
      } else compactedAt.push(index);
    }
    expect(proxy.lines).toHaveLength(compactedAt.length);
    expect(compactedAt.length).toBeGreaterThanOrEqual(3);
    // Under the trigger, the request went through as the client sent it.
    expect(upstream.requests[0]!.rawBody).toBe(recorded.bodies[0]);
    // Each compaction happened on its own trigger, not on every request after the first.
    expect(compactedAt.length).toBeLessThan(turns / 3);
    for (const index of compactedAt) {
      const original = {
        model: 'claude-sonnet-5-5',
        max_tokens: 1024,
        system: 'You are a careful coding agent.',
        tools,
        messages: sent[index],
      };
      expect(compactedRequestViolations('anthropic', original, received[index]), `request ${index}`).toEqual(
        [],
      );
      // Shorter (truncated tool results keep the count of turns; a sliding window drops turns).
      expect(JSON.stringify(received[index]!.messages).length).toBeLessThan(
        JSON.stringify(sent[index]).length,
      );
    }
    expect(proxy.lines[0]).toMatch(
      /^compaction proxy: conversation [0-9a-f]{8}: \d+ → \d+ tokens \(.+; trigger auto\)$/,
    );
    expect(proxy.lines.join('\n')).not.toContain('client-key');
    const status = proxy.server.status();
    expect(status.compactions).toBe(compactedAt.length);
    expect(status.conversations).toBe(1);
  });

  it('recognizes the turns of an agent that moves its cache marks, and keeps within four marks', async () => {
    upstream.handle('/v1/messages', answerWithToolCalls(upstream));
    const before = proxy.lines.length;
    const client = new Anthropic({
      apiKey: 'client-key',
      baseURL: proxy.url,
      maxRetries: 0,
      defaultHeaders: { 'x-compaction-conversation': 'moving-marks' },
    });
    const turns = 30;
    const { sent } = await runAgent(client, turns, { cacheMarks: true });
    const received = upstream.requests.map((request) => request.body as { messages: unknown[] });
    const compactions = proxy.lines.length - before;
    // Once per trigger, as without marks: the moved marks do not make old turns look new.
    expect(compactions).toBeGreaterThanOrEqual(3);
    expect(compactions).toBeLessThan(turns / 3);
    received.forEach((body, index) => {
      const original = {
        model: 'claude-sonnet-5-5',
        max_tokens: 1024,
        system: [
          { type: 'text', text: 'You are a careful coding agent.', cache_control: { type: 'ephemeral' } },
        ],
        tools,
        messages: sent[index],
      };
      expect(compactedRequestViolations('anthropic', original, body), `request ${index}`).toEqual([]);
      expect(JSON.stringify(body).split('"cache_control"').length - 1).toBeLessThanOrEqual(4);
    });
  });

  it('keeps conversations apart, by their first messages or the x-compaction-conversation header', async () => {
    upstream.handle('/v1/messages', answerWithToolCalls(upstream));
    const before = proxy.server.status().conversations;
    const named = new Anthropic({
      apiKey: 'client-key',
      baseURL: proxy.url,
      maxRetries: 0,
      defaultHeaders: { 'x-compaction-conversation': 'ticket-4711' },
    });
    await runAgent(named, 16);
    expect(proxy.lines.at(-1)).toContain('conversation ticket-4711:');
    // The proxy's own header stays with the proxy.
    expect(
      upstream.requests.every((request) => request.headers['x-compaction-conversation'] === undefined),
    ).toBe(true);
    expect(proxy.server.status().conversations).toBe(before + 1);
  });

  it('compacts harder and retries when the upstream answers a context overflow, else passes its error', async () => {
    const overflow = {
      status: 400,
      body: {
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message: 'prompt is too long: 212000 tokens > 200000 maximum',
        },
      },
    };
    const client = new Anthropic({
      apiKey: 'client-key',
      baseURL: proxy.url,
      maxRetries: 0,
      defaultHeaders: { 'x-compaction-conversation': 'overflowing' },
    });
    upstream.handle('/v1/messages', answerWithToolCalls(upstream));
    // Under the proxy's trigger, so the first attempt goes as it is.
    const { sent } = await runAgent(client, 8);
    const lines = proxy.lines.length;
    upstream.reset();
    upstream.enqueue('/v1/messages', overflow);
    upstream.handle('/v1/messages', answerWithToolCalls(upstream));
    const history = [...sent.at(-1)!];
    const answer = await client.messages.create({
      model: 'claude-sonnet-5-5',
      max_tokens: 1024,
      tools,
      messages: history,
    });
    expect(answer.stop_reason).toBe('tool_use');
    expect(upstream.requests).toHaveLength(2);
    const [first, retry] = upstream.requests.map((request) => request.body as { messages: unknown[] });
    expect(first!.messages).toHaveLength(history.length);
    expect(retry!.messages.length).toBeLessThan(history.length);
    expect(proxy.lines.slice(lines).join('\n')).toContain('trigger overflow');

    // A third overflow is the client's to see: two retries at most, and the provider's own error.
    upstream.reset();
    upstream.enqueue('/v1/messages', overflow, overflow, overflow);
    const error = await client.messages
      .create(
        { model: 'claude-sonnet-5-5', max_tokens: 1024, tools, messages: history },
        { headers: { 'x-compaction-conversation': 'overflowing-twice' } },
      )
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toEqual(overflow.body);
    expect(upstream.requests).toHaveLength(3);
  });
});

describe('compaction proxy: summaries', () => {
  it('summarizes with the operator’s provider and key, never the model or address of a request', async () => {
    const summarizer = await startAnthropicApi();
    const proxy = await startProxy(
      [upstream.url],
      {
        'context-window': '10000',
        strategy: 'summarization',
        provider: 'anthropic',
        model: 'claude-haiku-5-5',
        'base-url': summarizer.url,
      },
      { environment: { ANTHROPIC_API_KEY: 'operator-key' } },
    );
    try {
      upstream.handle('/v1/messages', answerWithToolCalls(upstream));
      const client = new Anthropic({
        apiKey: 'client-key',
        baseURL: proxy.url,
        maxRetries: 0,
        defaultHeaders: { 'x-compaction-conversation': 'summarized' },
      });
      await runAgent(client, 16, { model: 'client-model' });
      expect(proxy.lines.length).toBeGreaterThan(0);
      expect(summarizer.requests.length).toBeGreaterThan(0);
      for (const request of summarizer.requests) {
        expect((request.body as { model: string }).model).toBe('claude-haiku-5-5');
        expect(JSON.stringify(request.headers)).toContain('operator-key');
        expect(JSON.stringify(request.headers)).not.toContain('client-key');
      }
      // The client's requests still went to the upstream with the client's key and model.
      expect(
        upstream.requests.every((request) => (request.body as { model: string }).model === 'client-model'),
      ).toBe(true);
    } finally {
      await proxy.close();
      await summarizer.close();
    }
  });

  it('runs as many compactions at once as --max-concurrent allows, answers 503 past the queue, and never holds requests that do not compact', async () => {
    const summarizer = await startAnthropicApi(() => 500);
    const proxy = await startProxy(
      [upstream.url],
      {
        'context-window': '10000',
        strategy: 'summarization',
        provider: 'anthropic',
        model: 'claude-haiku-5-5',
        'base-url': summarizer.url,
      },
      { environment: { ANTHROPIC_API_KEY: 'operator-key' }, limits: { maxConcurrent: 1, maxQueue: 0 } },
    );
    try {
      upstream.handle('/v1/messages', answerWithToolCalls(upstream));
      const direct = new Anthropic({ apiKey: 'client-key', baseURL: upstream.url, maxRetries: 0 });
      // A history past the trigger, built without the proxy.
      const { history } = await runAgent(direct, 16);
      const client = new Anthropic({ apiKey: 'client-key', baseURL: proxy.url, maxRetries: 0 });
      const send = (conversation: string, messages: Anthropic.MessageParam[]) =>
        client.messages
          .create(
            { model: 'claude-sonnet-5-5', max_tokens: 1024, tools, messages },
            { headers: { 'x-compaction-conversation': conversation } },
          )
          .then(
            () => 200,
            (error: unknown) => (error as InstanceType<typeof Anthropic.APIError>).status,
          );
      const statuses = await Promise.all([
        send('first', history),
        send('second', history),
        send('short', [{ role: 'user', content: 'Hello' }]),
      ]);
      expect(statuses.slice(0, 2).sort()).toEqual([200, 503]);
      expect(statuses[2]).toBe(200);
    } finally {
      await proxy.close();
      await summarizer.close();
    }
  });
});
