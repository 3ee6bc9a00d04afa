import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responsesShellSession } from './__fixtures__/responses-shell-session.js';
import { type RunningProxy, startProxy } from './__fixtures__/start-proxy.js';

// A Responses request that continues context the API stores (`previous_response_id`, or a `conversation` the
// items are appended to) holds only the new items: the history is upstream, where compaction cannot see it.
// Compacting the new items would count the wrong thing and drop items the model never saw (with
// `conversation`, for good: they would never be stored). The proxy forwards such requests byte for byte.

let upstream: TestServer;
let proxy: RunningProxy;
beforeAll(async () => {
  upstream = await startTestServer();
  proxy = await startProxy([`openai=${upstream.url}`], { 'context-window': '8000' });
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

describe('compaction proxy: Responses requests that continue stored context', () => {
  it.each([
    ['a conversation id', { conversation: 'conv_6f2a' }],
    ['a conversation object', { conversation: { id: 'conv_6f2a' } }],
    ['previous_response_id', { previous_response_id: 'resp_0a1b' }],
  ])('forwards a request with %s unchanged, however long its input', async (_name, continuation) => {
    upstream.reset();
    upstream.handle('/v1/responses', () => ({
      body: {
        id: 'resp_next',
        object: 'response',
        created_at: 1,
        model: 'gpt-5',
        status: 'completed',
        output: [],
        usage: { input_tokens: 30_000, output_tokens: 1, total_tokens: 30_001 },
      },
    }));
    const client = new OpenAI({ apiKey: 'test-key', baseURL: `${proxy.url}/v1`, maxRetries: 0 });
    const request = { model: 'gpt-5', input: responsesShellSession(), ...continuation };
    // Twice: the second time the proxy would also have a remembered compaction to apply.
    await client.responses.create(request);
    await client.responses.create(request);

    expect(upstream.requests).toHaveLength(2);
    for (const received of upstream.requests) {
      expect(received.body).toEqual(request);
    }
  });

  it('still compacts the same items when the request carries the whole context', async () => {
    upstream.reset();
    upstream.handle('/v1/responses', () => ({
      body: {
        id: 'resp_next',
        object: 'response',
        created_at: 1,
        model: 'gpt-5',
        status: 'completed',
        output: [],
      },
    }));
    const client = new OpenAI({ apiKey: 'test-key', baseURL: `${proxy.url}/v1`, maxRetries: 0 });
    const input = responsesShellSession();
    await client.responses.create({ model: 'gpt-5', input });

    const sent = upstream.requests[0]!.body as { input: unknown[] };
    expect(sent.input.length).toBeLessThan(input.length);
  });
});
