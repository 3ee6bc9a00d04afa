import { request as httpRequest } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningProxy, recordingFetch, startProxy } from './__fixtures__/start-proxy.js';

// The real SDKs, pointed at the proxy, pointed at a loopback upstream: what passes under the trigger, both
// ways, is exactly what was sent; errors come back as the upstream answered them; no request picks the upstream.

let upstream: TestServer;
let proxy: RunningProxy;
beforeAll(async () => {
  upstream = await startTestServer();
  proxy = await startProxy([upstream.url], { 'context-window': '200000' });
});
afterEach(() => upstream.reset());
afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

const anthropicKey = 'sk-ant-client-secret-0001';
const openAIKey = 'sk-openai-client-secret-0002';

/** An Anthropic answer as the API writes it, with spacing a re-serialization would lose. */
const anthropicAnswer =
  '{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-5-5",  "content":[{"type":"text","text":"Hello there"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":3}}';

function anthropicClient(fetchImplementation?: typeof fetch, headers: Record<string, string> = {}) {
  return new Anthropic({
    apiKey: anthropicKey,
    baseURL: proxy.url,
    maxRetries: 0,
    defaultHeaders: { 'anthropic-beta': 'context-1m-2025-08-07', ...headers },
    ...(fetchImplementation === undefined ? {} : { fetch: fetchImplementation }),
  });
}

function openAIClient(fetchImplementation?: typeof fetch) {
  return new OpenAI({
    apiKey: openAIKey,
    baseURL: `${proxy.url}/v1`,
    maxRetries: 0,
    ...(fetchImplementation === undefined ? {} : { fetch: fetchImplementation }),
  });
}

/** A stream whose pieces after the first wait for `release`, to show the proxy does not buffer it. */
function heldStream(pieces: string[]) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  async function* chunks() {
    yield pieces[0]!;
    await released;
    yield* pieces.slice(1);
  }
  return { chunks: chunks(), release };
}

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

const anthropicStream = [
  sse('message_start', {
    type: 'message_start',
    message: {
      id: 'msg_02',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-5-5',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: 1 },
    },
  }),
  sse('content_block_start', {
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'text', text: '' },
  }),
  sse('content_block_delta', {
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'text_delta', text: 'Hel' },
  }),
  sse('content_block_delta', {
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'text_delta', text: 'lo' },
  }),
  sse('content_block_stop', { type: 'content_block_stop', index: 0 }),
  sse('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: 2 },
  }),
  sse('message_stop', { type: 'message_stop' }),
];

describe('compaction proxy: pass-through', () => {
  it('passes an Anthropic request and its answer byte for byte, with the API key and beta flags', async () => {
    upstream.enqueue('/v1/messages', { raw: anthropicAnswer, headers: { 'request-id': 'req_upstream_1' } });
    const recorded = recordingFetch();
    const { data, response } = await anthropicClient(recorded.fetch)
      .messages.create({
        model: 'claude-sonnet-5-5',
        max_tokens: 100,
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'Hello' }],
      })
      .withResponse();
    expect(data.content).toEqual([{ type: 'text', text: 'Hello there' }]);
    expect(response.headers.get('request-id')).toBe('req_upstream_1');
    const [received] = upstream.requests;
    expect(received?.path).toBe('/v1/messages');
    expect(received?.rawBody).toBe(recorded.bodies[0]);
    // This SDK sends the key as a bearer token; whichever header carries it, it reaches the upstream.
    expect(received?.headers.authorization).toBe(`Bearer ${anthropicKey}`);
    expect(received?.headers['anthropic-beta']).toBe('context-1m-2025-08-07');
    expect(received?.headers['anthropic-version']).toBeDefined();
    // The raw answer, as the client read it, is the upstream's.
    upstream.enqueue('/v1/messages', { raw: anthropicAnswer });
    const raw = await anthropicClient()
      .messages.create({
        model: 'claude-sonnet-5-5',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'Hi' }],
      })
      .asResponse();
    expect(await raw.text()).toBe(anthropicAnswer);
    expect(proxy.lines.join('\n')).not.toContain('secret');
  });

  it('streams an Anthropic answer event by event, without waiting for its end', async () => {
    const held = heldStream(anthropicStream);
    upstream.enqueue('/v1/messages', { chunks: held.chunks });
    const stream = await anthropicClient().messages.create({
      model: 'claude-sonnet-5-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Hello' }],
      stream: true,
    });
    const events: string[] = [];
    for await (const event of stream) {
      // The first event arrived while the upstream still holds the rest: the proxy passed it on at once.
      if (events.length === 0) held.release();
      events.push(event.type);
    }
    expect(events).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
  });

  it('passes OpenAI Chat Completions and Responses requests, plain and streamed, byte for byte', async () => {
    const chatAnswer =
      '{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-4.1","choices":[{"index":0,"message":{"role":"assistant","content":"Hi","refusal":null},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6}}';
    upstream.enqueue('/v1/chat/completions', { raw: chatAnswer });
    const recorded = recordingFetch();
    const client = openAIClient(recorded.fetch);
    const chat = await client.chat.completions
      .create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'Hello' }] })
      .asResponse();
    expect(await chat.text()).toBe(chatAnswer);
    expect(upstream.requests[0]?.rawBody).toBe(recorded.bodies[0]);
    expect(upstream.requests[0]?.headers.authorization).toBe(`Bearer ${openAIKey}`);

    const chunk = (content: string, finish: string | null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-2', object: 'chat.completion.chunk', created: 1, model: 'gpt-4.1', choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;
    const pieces = [chunk('Hel', null), chunk('lo', 'stop'), 'data: [DONE]\n\n'];
    upstream.enqueue('/v1/chat/completions', { chunks: pieces });
    const streamed = await client.chat.completions
      .create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'Hello' }], stream: true })
      .asResponse();
    expect(await streamed.text()).toBe(pieces.join(''));
    expect(upstream.requests[1]?.rawBody).toBe(recorded.bodies[1]);

    const responsesAnswer =
      '{"id":"resp_1","object":"response","created_at":1,"status":"completed","model":"gpt-4.1","output":[{"type":"message","id":"msg_1","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Hi","annotations":[]}]}],"usage":{"input_tokens":5,"output_tokens":1,"total_tokens":6}}';
    upstream.enqueue('/v1/responses', { raw: responsesAnswer });
    const response = await client.responses.create({
      model: 'gpt-4.1',
      input: [{ role: 'user', content: 'Hello' }],
    });
    expect(response.output_text).toBe('Hi');
    expect(upstream.requests[2]?.path).toBe('/v1/responses');
    expect(upstream.requests[2]?.rawBody).toBe(recorded.bodies[2]);
  });

  it('passes the upstream’s 429 and 500 back as they came', async () => {
    const limited = {
      type: 'error',
      error: { type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit' },
    };
    upstream.enqueue('/v1/messages', { status: 429, body: limited, headers: { 'retry-after': '7' } });
    const error = await anthropicClient()
      .messages.create({
        model: 'claude-sonnet-5-5',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'Hi' }],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toEqual(limited);
    expect((error as InstanceType<typeof Anthropic.APIError>).headers?.get('retry-after')).toBe('7');

    const failed = {
      error: { message: 'The server had an error', type: 'server_error', param: null, code: null },
    };
    upstream.enqueue('/v1/chat/completions', { status: 500, body: failed });
    const serverError = await openAIClient()
      .chat.completions.create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'Hello' }] })
      .catch((caught: unknown) => caught);
    expect(serverError).toBeInstanceOf(OpenAI.InternalServerError);
    expect((serverError as InstanceType<typeof OpenAI.APIError>).error).toEqual(failed.error);
    // One request each: the proxy retries only an overflow.
    expect(upstream.requests).toHaveLength(2);
  });

  it('refuses a request that names its own upstream, and sends it nowhere', async () => {
    const refusedWith = async (path: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; body: { error?: { code?: string; message?: string } } }>(
        (resolve, reject) => {
          const address = new URL(proxy.url);
          const outgoing = httpRequest(
            {
              host: address.hostname,
              port: address.port,
              method: 'POST',
              path,
              headers: { 'content-type': 'application/json', 'x-api-key': anthropicKey, ...headers },
            },
            (response) => {
              const chunks: Buffer[] = [];
              response.on('data', (chunk: Buffer) => chunks.push(chunk));
              response.on('end', () =>
                resolve({
                  status: response.statusCode ?? 0,
                  body: JSON.parse(Buffer.concat(chunks).toString()),
                }),
              );
            },
          );
          outgoing.on('error', reject);
          outgoing.end(
            JSON.stringify({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'Hi' }] }),
          );
        },
      );
    for (const [path, headers] of [
      ['http://attacker.invalid/v1/messages', {}],
      ['/v1/messages', { 'x-upstream-url': 'http://attacker.invalid' }],
      ['/v1/messages', { 'x-compaction-upstream': 'openai' }],
      ['/v1/messages?base_url=http://attacker.invalid', {}],
    ] as const) {
      const { status, body } = await refusedWith(path, headers);
      expect(status, path).toBe(400);
      expect(body.error?.code).toBe('upstream-not-allowed');
      expect(body.error?.message).toContain('--upstream');
    }
    const viaSdk = await anthropicClient(undefined, { 'x-compaction-upstream': 'http://attacker.invalid' })
      .messages.create({
        model: 'claude-sonnet-5-5',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'Hi' }],
      })
      .catch((caught: unknown) => caught);
    expect(viaSdk).toBeInstanceOf(Anthropic.BadRequestError);
    expect(upstream.requests).toHaveLength(0);
  });

  it('answers its status at GET /compaction/status', async () => {
    const response = await fetch(`${proxy.url}/compaction/status`);
    expect(response.status).toBe(200);
    const status = (await response.json()) as { requests: number };
    expect(status).toMatchObject({
      requests: expect.any(Number),
      compactions: 0,
      overflowRetries: 0,
      conversations: 0,
      upstreams: { anthropic: `${upstream.url}/`, openai: `${upstream.url}/` },
    });
    expect(status.requests).toBeGreaterThan(0);
  });
});
