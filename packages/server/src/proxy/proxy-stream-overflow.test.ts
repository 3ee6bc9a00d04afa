import { compactedRequestViolations } from '@compaction/testing';
import { type Reply, startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responsesShellSession } from './__fixtures__/responses-shell-session.js';
import { type RunningProxy, startProxy } from './__fixtures__/start-proxy.js';

// The Responses API can refuse a request as too long after it answered 200 and opened the stream: the event
// after `response.created` is a `response.failed` whose error has the code `context_length_exceeded` (what
// Codex reads as "context window exceeded"). The proxy recovers from it as from a 400: it compacts what it sent
// with the `overflow` trigger and retries (twice at most), and the client reads the retry's stream.

let upstream: TestServer;
let proxy: RunningProxy;
beforeAll(async () => {
  upstream = await startTestServer();
  proxy = await startProxy([`openai=${upstream.url}`]);
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

const envelope = (status: string) => ({
  id: 'resp_1',
  object: 'response',
  created_at: 1,
  model: 'gpt-5',
  status,
  output: [],
});

function events(list: Array<Record<string, unknown>>): Reply {
  return {
    headers: { 'content-type': 'text/event-stream' },
    chunks: list.map(
      (event, index) =>
        `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: index })}\n\n`,
    ),
  };
}

const failed = (code: string, message: string) =>
  events([
    { type: 'response.created', response: envelope('in_progress') },
    { type: 'response.in_progress', response: envelope('in_progress') },
    { type: 'response.failed', response: { ...envelope('failed'), error: { code, message } } },
  ]);

const overflow = () =>
  failed(
    'context_length_exceeded',
    'Your input exceeds the context window of this model. Please adjust your input and try again.',
  );

const item = {
  type: 'message',
  id: 'msg_1',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text: 'Tests pass.', annotations: [] }],
};
const answered = () =>
  events([
    { type: 'response.created', response: envelope('in_progress') },
    { type: 'response.output_item.added', output_index: 0, item: { ...item, content: [] } },
    {
      type: 'response.output_text.delta',
      item_id: 'msg_1',
      output_index: 0,
      content_index: 0,
      delta: 'Tests pass.',
    },
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response: { ...envelope('completed'), output: [item] } },
  ]);

async function streamThroughProxy() {
  const client = new OpenAI({ apiKey: 'test-key', baseURL: `${proxy.url}/v1`, maxRetries: 0 });
  const request = { model: 'gpt-5', input: responsesShellSession(), stream: true as const };
  const types: string[] = [];
  let text = '';
  for await (const event of await client.responses.create(request)) {
    types.push(event.type);
    if (event.type === 'response.output_text.delta') text += event.delta;
  }
  return { request, types, text };
}

describe('compaction proxy: a Responses stream that opens with a context overflow', () => {
  it('is retried once, compacted, and the client reads the answer to the retry', async () => {
    upstream.reset();
    upstream.enqueue('/v1/responses', overflow());
    upstream.handle('/v1/responses', () => answered());
    const retriesBefore = proxy.server.status().overflowRetries;

    const { request, types, text } = await streamThroughProxy();

    expect(text).toBe('Tests pass.');
    expect(types).not.toContain('response.failed');
    expect(types.at(-1)).toBe('response.completed');
    expect(upstream.requests).toHaveLength(2);
    const [refused, retry] = upstream.requests.map((received) => received.body);
    expect(refused).toEqual(request);
    expect(upstream.requests[1]!.rawBody.length).toBeLessThan(upstream.requests[0]!.rawBody.length);
    expect(compactedRequestViolations('openai-responses', refused, retry)).toEqual([]);
    expect(proxy.server.status().overflowRetries).toBe(retriesBefore + 1);
  });

  it('passes any other failure on as it came, without a retry', async () => {
    upstream.reset();
    upstream.handle('/v1/responses', () => failed('server_error', 'The server had an error.'));

    const { types } = await streamThroughProxy();

    expect(upstream.requests).toHaveLength(1);
    expect(types).toEqual(['response.created', 'response.in_progress', 'response.failed']);
  });
});
