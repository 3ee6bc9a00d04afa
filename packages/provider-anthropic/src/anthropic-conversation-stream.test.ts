import Anthropic from '@anthropic-ai/sdk';
import { createFastEstimator, InvalidOptionsError } from '@compaction/core';
import { createSlidingWindow } from '@compaction/strategy-sliding-window';
import { recordConversationEvents } from '@compaction/testing';
import { type Reply, startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { anthropicProfile } from '@compaction/token-estimator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicConversation } from './index.js';

let server: TestServer;
let client: Anthropic;

beforeEach(async () => {
  server = await startTestServer();
  client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
});
afterEach(() => server.close());

const event = (name: string, data: object) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/** A streamed answer in the Messages API's events, reporting `inputTokens`. */
function streamedAnswer(text: string, inputTokens: number): Reply {
  const message = {
    id: 'msg_stream',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-5-5',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: inputTokens, output_tokens: 1 },
  };
  return {
    chunks: [
      event('message_start', { type: 'message_start', message }),
      event('content_block_start', {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'text', text: '' },
      }),
      event('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text },
      }),
      event('content_block_stop', { type: 'content_block_stop', index: 0 }),
      event('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: 5 },
      }),
      event('message_stop', { type: 'message_stop' }),
    ],
  };
}

const tooLong = {
  type: 'invalid_request_error',
  message: 'prompt is too long: 90000 tokens > 20000 maximum',
};
/** The refusal as a 400 before any event. */
const refusedBefore: Reply = { status: 400, body: { type: 'error', error: tooLong } };
/** The refusal as the stream's first event, after a 200. */
const refusedInside: Reply = { chunks: [event('error', { type: 'error', error: tooLong })] };

function longHistory(): Anthropic.MessageParam[] {
  return Array.from(
    { length: 12 },
    (_, index): Anthropic.MessageParam => ({
      role: index % 2 === 0 ? 'user' : 'assistant',
      content: `${index}: ${'a long line of the conversation so far. '.repeat(60)}`,
    }),
  );
}

function conversation(messages: Anthropic.MessageParam[] = []) {
  return createAnthropicConversation({
    client,
    stream: true,
    messages,
    request: { model: 'claude-sonnet-5-5', max_tokens: 1_024 },
    compaction: {
      strategy: createSlidingWindow(),
      estimator: createFastEstimator({ profile: anthropicProfile }),
      budget: { contextWindow: 20_000, trigger: false },
    },
  });
}

describe('an Anthropic conversation that streams', () => {
  it('sends with messages.stream, appends the final message and records its usage', async () => {
    server.handle('/v1/messages', () => streamedAnswer('Streamed hello.', 321));
    const target = conversation();
    const answer = await target.send('Hello');
    expect(answer.content).toEqual([{ type: 'text', text: 'Streamed hello.' }]);
    expect((server.requests[0]!.body as { stream?: boolean }).stream).toBe(true);
    expect(target.history.at(-1)).toEqual({ role: 'assistant', content: answer.content });
    // The usage the stream reported anchors the count of what was sent: the user turn.
    const sent = target.coreContext.slice(0, -1);
    expect(target.compactor.counter.anchoredLength(sent)).toBe(sent.length);
  });

  for (const [where, refusal] of [
    ['before the stream', refusedBefore],
    ["as the stream's first event", refusedInside],
  ] as const) {
    it(`recovers a refusal ${where}: compacts with the overflow trigger and streams the retry`, async () => {
      server.enqueue('/v1/messages', refusal);
      server.handle('/v1/messages', () => streamedAnswer('Recovered.', 900));
      const target = conversation(longHistory());
      const events = recordConversationEvents(target);
      const answer = await target.send('Summarize.');
      expect(answer.content).toEqual([{ type: 'text', text: 'Recovered.' }]);
      expect(server.requests).toHaveLength(2);
      expect(events.overflows).toHaveLength(1);
      expect(events.overflows[0]!.error).toMatchObject({ requestTokens: 90_000, maximumTokens: 20_000 });
      expect(target.compactions.map((compaction) => compaction.trigger)).toEqual(['overflow']);
      const [refused, retry] = server.requests.map((request) => JSON.stringify(request.body));
      expect(retry!.length).toBeLessThan(refused!.length);
    });
  }

  it('refuses to stream with a client that has no messages.stream', async () => {
    const target = createAnthropicConversation({
      client: { messages: { create: client.messages.create.bind(client.messages) } },
      stream: true,
      request: { model: 'claude-sonnet-5-5', max_tokens: 1_024 },
      compaction: { strategy: createSlidingWindow(), budget: { contextWindow: 20_000 } },
    });
    await expect(target.send('Hello')).rejects.toBeInstanceOf(InvalidOptionsError);
    expect(server.requests).toHaveLength(0);
  });
});
