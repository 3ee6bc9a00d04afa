import { InvalidOptionsError } from '@compaction/core';
import { createSlidingWindow } from '@compaction/strategy-sliding-window';
import { recordConversationEvents } from '@compaction/testing';
import type { Reply, TestServer } from '@compaction/testing/loopback-server';
import type OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { responsesOverflowMessage } from './__fixtures__/openai-conversation-script.js';
import { estimator, model, startLoopbackOpenAI } from './__fixtures__/openai-conversation-setup.js';
import { createOpenAIConversation, createOpenAIResponsesConversation } from './index.js';

let server: TestServer;
let client: OpenAI;

beforeEach(async () => {
  ({ server, client } = await startLoopbackOpenAI());
});
afterEach(() => server.close());

const data = (payload: object) => `data: ${JSON.stringify(payload)}\n\n`;
const event = (name: string, payload: object) => `event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`;

/** A Chat Completions stream of `text`, with the usage chunk `stream_options.include_usage` asks for. */
function streamedCompletion(text: string, promptTokens: number): Reply {
  const chunk = (fields: object) =>
    data({ id: 'chatcmpl_1', object: 'chat.completion.chunk', created: 1, model, ...fields });
  return {
    chunks: [
      chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: text }, finish_reason: null }] }),
      chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
      chunk({
        choices: [],
        usage: { prompt_tokens: promptTokens, completion_tokens: 5, total_tokens: promptTokens + 5 },
      }),
      'data: [DONE]\n\n',
    ],
  };
}

const chatRefusal: Reply = {
  status: 400,
  body: {
    error: {
      message:
        "This model's maximum context length is 20000 tokens. However, your messages resulted in 90000 tokens. Please reduce the length of the messages.",
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    },
  },
};

/** A Responses object with `fields`. */
const response = (fields: object) => ({
  id: 'resp_1',
  object: 'response',
  created_at: 1_800_000_000,
  model,
  parallel_tool_calls: true,
  tool_choice: 'auto',
  tools: [],
  error: null,
  incomplete_details: null,
  output: [],
  ...fields,
});

/** A Responses stream that ends with a completed response saying `text`. */
function streamedResponse(text: string, inputTokens: number): Reply {
  const output = [
    {
      type: 'message',
      id: 'msg_1',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text, annotations: [] }],
    },
  ];
  const usage = {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: inputTokens + 5,
  };
  return {
    chunks: [
      event('response.created', {
        type: 'response.created',
        sequence_number: 0,
        response: response({ status: 'in_progress' }),
      }),
      event('response.completed', {
        type: 'response.completed',
        sequence_number: 1,
        response: response({ status: 'completed', output, usage }),
      }),
    ],
  };
}

/** The Responses API's refusal inside a stream it started: a `response.failed` after `response.created`. */
const failedInStream: Reply = {
  chunks: [
    event('response.created', {
      type: 'response.created',
      sequence_number: 0,
      response: response({ status: 'in_progress' }),
    }),
    event('response.failed', {
      type: 'response.failed',
      sequence_number: 1,
      response: response({
        status: 'failed',
        error: { code: 'context_length_exceeded', message: responsesOverflowMessage },
      }),
    }),
  ],
};

const longText = (index: number) => `${index}: ${'a long line of the conversation so far. '.repeat(60)}`;

const compaction = {
  strategy: createSlidingWindow(),
  estimator,
  budget: { contextWindow: 20_000, trigger: false as const },
};

describe('an OpenAI Chat Completions conversation that streams', () => {
  const create = (messages: OpenAI.Chat.ChatCompletionMessageParam[] = []) =>
    createOpenAIConversation({ client, stream: true, messages, request: { model }, compaction });

  it('sends stream: true with usage asked for, appends the completion and records its usage', async () => {
    server.handle('/v1/chat/completions', () => streamedCompletion('Streamed hello.', 321));
    const target = create();
    const completion = await target.send('Hello');
    expect(completion.choices[0]!.message.content).toBe('Streamed hello.');
    expect(server.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(target.history.at(-1)).toMatchObject({ role: 'assistant', content: 'Streamed hello.' });
    const sent = target.coreContext.slice(0, -1);
    expect(target.compactor.counter.anchoredLength(sent)).toBe(sent.length);
  });

  it('recovers a refusal before the stream: compacts with the overflow trigger and streams the retry', async () => {
    server.enqueue('/v1/chat/completions', chatRefusal);
    server.handle('/v1/chat/completions', () => streamedCompletion('Recovered.', 900));
    const history = Array.from(
      { length: 12 },
      (_, index): OpenAI.Chat.ChatCompletionMessageParam =>
        index % 2 === 0
          ? { role: 'user', content: longText(index) }
          : { role: 'assistant', content: longText(index) },
    );
    const target = create(history);
    const events = recordConversationEvents(target);
    const completion = await target.send('Summarize.');
    expect(completion.choices[0]!.message.content).toBe('Recovered.');
    expect(server.requests).toHaveLength(2);
    expect(events.overflows[0]!.error).toMatchObject({ requestTokens: 90_000, maximumTokens: 20_000 });
    expect(target.compactions.map((compaction) => compaction.trigger)).toEqual(['overflow']);
  });

  it('refuses to stream with a client that has no chat.completions.stream', async () => {
    const target = createOpenAIConversation({
      client: {
        chat: { completions: { create: client.chat.completions.create.bind(client.chat.completions) } },
      },
      stream: true,
      request: { model },
      compaction,
    });
    await expect(target.send('Hello')).rejects.toBeInstanceOf(InvalidOptionsError);
    expect(server.requests).toHaveLength(0);
  });
});

describe('an OpenAI Responses conversation that streams', () => {
  const create = (input: OpenAI.Responses.ResponseInputItem[] = []) =>
    createOpenAIResponsesConversation({
      client,
      stream: true,
      input,
      request: { model, store: false },
      compaction,
    });

  it('sends stream: true, appends the final response and records its usage', async () => {
    server.handle('/v1/responses', () => streamedResponse('Streamed hello.', 321));
    const target = create();
    const answer = await target.send('Hello');
    expect(answer.output_text).toBe('Streamed hello.');
    expect(server.requests[0]!.body).toMatchObject({ stream: true });
    const sent = target.coreContext.slice(0, -1);
    expect(target.compactor.counter.anchoredLength(sent)).toBe(sent.length);
  });

  it('recovers a response.failed inside the stream: compacts with the overflow trigger and streams the retry', async () => {
    server.enqueue('/v1/responses', failedInStream);
    server.handle('/v1/responses', () => streamedResponse('Recovered.', 900));
    const input = Array.from(
      { length: 12 },
      (_, index): OpenAI.Responses.ResponseInputItem => ({
        role: index % 2 === 0 ? 'user' : 'assistant',
        content: longText(index),
      }),
    );
    const target = create(input);
    const events = recordConversationEvents(target);
    const answer = await target.send('Summarize.');
    expect(answer.output_text).toBe('Recovered.');
    expect(server.requests).toHaveLength(2);
    expect(events.overflows).toHaveLength(1);
    expect(target.compactions.map((compaction) => compaction.trigger)).toEqual(['overflow']);
    const [refused, retry] = server.requests.map((request) => JSON.stringify(request.body));
    expect(retry!.length).toBeLessThan(refused!.length);
  });
});
