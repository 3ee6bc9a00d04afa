import {
  ContextOverflowError,
  createMessageEstimator,
  InvalidMessagesError,
  InvalidOptionsError,
  type Message,
  ProviderError,
} from '@compaction/core';
import { resolveProviderConfig } from '@compaction/testing';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { describeProviderTransport } from '@compaction/testing/vitest';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAIProvider, type OpenAIProviderSettings } from './openai-provider.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  server.handle('/v1/chat/completions', () => ({ body: chatResponse('## Summary\nTests fixed.') }));
  server.handle('/v1/responses', () => ({ body: responsesResponse('## Summary\nTests fixed.') }));
});

function chatResponse(content: string, finishReason = 'stop') {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 0,
    model: 'gpt-5.4',
    choices: [
      { index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: finishReason },
    ],
    usage: {
      prompt_tokens: 120,
      completion_tokens: 12,
      total_tokens: 132,
      prompt_tokens_details: { cached_tokens: 64 },
    },
  };
}

function responsesResponse(text: string, status = 'completed', reason?: string) {
  return {
    id: 'resp_1',
    object: 'response',
    created_at: 0,
    model: 'gpt-5.4',
    status,
    error: null,
    incomplete_details: reason === undefined ? null : { reason },
    output: [
      { type: 'reasoning', id: 'rs_1', summary: [] },
      {
        type: 'message',
        id: 'msg_1',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text, annotations: [] }],
      },
    ],
    usage: {
      input_tokens: 90,
      output_tokens: 10,
      total_tokens: 100,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
}

const conversation: Message[] = [
  { role: 'system', content: [{ type: 'text', text: 'Summarize the conversation.' }] },
  { role: 'user', content: [{ type: 'text', text: 'Run the tests.' }] },
  {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'bash', input: { command: 'npm test' } }],
  },
  {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'bash', output: '1 failed' }],
  },
  { role: 'user', content: [{ type: 'text', text: 'Write the summary now.' }] },
];

const provider = (settings: OpenAIProviderSettings = {}) =>
  createOpenAIProvider({
    apiKey: 'test-key',
    baseURL: `${server.url}/v1`,
    maxRetries: 0,
    timeout: 2000,
    ...settings,
  });

const failure = (error: { message: string; type: string; code: string | null; param?: string | null }) => ({
  error: { param: null, ...error },
});

describe('createOpenAIProvider over HTTP', () => {
  it('generates through Chat Completions and reports text, finish reason and usage', async () => {
    const result = await provider().generate({
      messages: conversation,
      maxOutputTokens: 256,
      temperature: 0,
    });
    expect(result).toEqual({
      text: '## Summary\nTests fixed.',
      finishReason: 'stop',
      usage: { inputTokens: 120, outputTokens: 12, cacheReadTokens: 64 },
    });
    expect(server.requests[0]!.path).toBe('/v1/chat/completions');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer test-key');
    expect(server.requests[0]!.body).toMatchSnapshot();
  });

  it('generates through the Responses API when asked', async () => {
    const result = await provider({ api: 'responses', systemRole: 'developer' }).generate({
      messages: conversation,
    });
    expect(result).toEqual({
      text: '## Summary\nTests fixed.',
      finishReason: 'stop',
      usage: { inputTokens: 90, outputTokens: 10, cacheReadTokens: 0 },
    });
    expect(server.requests[0]!.path).toBe('/v1/responses');
    expect(server.requests[0]!.body).toMatchSnapshot();
  });

  it('maps length and content filter finish reasons on both APIs', async () => {
    server.enqueue(
      '/v1/chat/completions',
      { body: chatResponse('cut', 'length') },
      { body: chatResponse('', 'content_filter') },
    );
    server.enqueue('/v1/responses', { body: responsesResponse('cut', 'incomplete', 'max_output_tokens') });
    expect((await provider().generate({ messages: conversation })).finishReason).toBe('length');
    expect((await provider().generate({ messages: conversation })).finishReason).toBe('content-filter');
    expect((await provider({ api: 'responses' }).generate({ messages: conversation })).finishReason).toBe(
      'length',
    );
  });

  it('uses an injected client', async () => {
    const client = new OpenAI({ apiKey: 'injected', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const result = await createOpenAIProvider({ client, model: 'gpt-5.4-mini' }).generate({
      messages: conversation,
    });
    expect(result.text).toContain('Summary');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer injected');
    expect(server.requests[0]!.body).toMatchObject({ model: 'gpt-5.4-mini', max_completion_tokens: 4096 });
  });

  it('throws ContextOverflowError with the numbers on context_length_exceeded (Chat Completions)', async () => {
    const message =
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens. Please reduce the length of the messages.";
    server.enqueue('/v1/chat/completions', {
      status: 400,
      body: failure({
        message,
        type: 'invalid_request_error',
        code: 'context_length_exceeded',
        param: 'messages',
      }),
    });
    const error = await provider()
      .generate({ messages: conversation })
      .catch((caught: unknown) => caught);
    expect(ContextOverflowError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ provider: 'openai', requestTokens: 130532, maximumTokens: 128000 });
  });

  it('throws ContextOverflowError on context_length_exceeded (Responses, status 400 and failed response)', async () => {
    const message =
      'Your input exceeds the context window of this model. Please adjust your input and try again.';
    server.enqueue(
      '/v1/responses',
      {
        status: 400,
        body: failure({
          message,
          type: 'invalid_request_error',
          code: 'context_length_exceeded',
          param: 'input',
        }),
      },
      {
        body: {
          ...responsesResponse(''),
          status: 'failed',
          output: [],
          error: { code: 'context_length_exceeded', message },
        },
      },
    );
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await provider({ api: 'responses' })
        .generate({ messages: conversation })
        .catch((caught: unknown) => caught);
      expect(ContextOverflowError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ provider: 'openai', requestTokens: undefined, maximumTokens: undefined });
    }
  });

  it('reports 429 and 500 as retryable, insufficient_quota and 401 as not', async () => {
    server.enqueue(
      '/v1/chat/completions',
      {
        status: 429,
        headers: { 'retry-after': '0' },
        body: failure({ message: 'Rate limit', type: 'requests', code: 'rate_limit_exceeded' }),
      },
      { status: 500, body: failure({ message: 'Server error', type: 'server_error', code: null }) },
      {
        status: 429,
        body: failure({
          message: 'You exceeded your quota',
          type: 'insufficient_quota',
          code: 'insufficient_quota',
        }),
      },
      {
        status: 401,
        body: failure({ message: 'Bad key', type: 'invalid_request_error', code: 'invalid_api_key' }),
      },
    );
    const outcomes = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      const error = await provider()
        .generate({ messages: conversation })
        .catch((caught: unknown) => caught);
      outcomes.push([
        ProviderError.isInstance(error),
        (error as ProviderError).status,
        (error as ProviderError).retryable,
      ]);
    }
    expect(outcomes).toEqual([
      [true, 429, true],
      [true, 500, true],
      [true, 429, false],
      [true, 401, false],
    ]);
  });

  describeProviderTransport({
    server: () => server,
    path: '/v1/chat/completions',
    answer: () => chatResponse('## Summary\nTests fixed.'),
    rateLimited: failure({ message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' }),
    malformed: '{"choices": [',
    provider,
    messages: conversation,
  });

  it('lets converter errors through as typed errors without calling the API', async () => {
    const orphan: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'nowhere', toolName: 'x', output: 'x' }] },
    ];
    const error = await provider()
      .generate({ messages: orphan })
      .catch((caught: unknown) => caught);
    expect(InvalidMessagesError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it("is resolved by name from a config, through core's provider registry", async () => {
    const resolved = await resolveProviderConfig({
      provider: {
        name: 'openai',
        model: 'gpt-4.1',
        apiKey: 'config-key',
        baseURL: `${server.url}/v1`,
        maxRetries: 0,
      },
      load: () => import('./index.js'),
    });
    const { loaded, strategyProviders, providers } = resolved;
    expect(loaded).toEqual(['@compaction/provider-openai']);
    expect(resolved.provider).toMatchObject({ name: 'openai', modelId: 'gpt-4.1' });
    expect(strategyProviders).toEqual([resolved.provider]);
    await resolved.provider!.generate({ messages: conversation });
    // An aborted request of an earlier test may still arrive, so look for this one by its model.
    expect(server.requests.map((request) => (request.body as { model: string }).model)).toContain('gpt-4.1');
    await expect(providers.resolve({ name: 'openai', temprature: 1 })).rejects.toThrow(InvalidOptionsError);
  });
});

describe('countTokens', () => {
  it('uses the core estimate when no tokenizer is installed, and says so', async () => {
    const count = await createOpenAIProvider({ loadEstimator: async () => undefined }).countTokens({
      messages: conversation,
    });
    expect(count.accuracy).toBe('estimated');
    expect(count.source).toBe('approximate:3.5');
    expect(count.tokens).toBe(
      conversation.reduce(
        (sum, message) =>
          sum +
          createMessageEstimator({
            name: 'approximate:3.5',
            countText: (text) => Math.ceil(text.length / 3.5),
          }).countMessage(message),
        0,
      ),
    );
  });

  it('falls back to the estimate when loading the tokenizer fails', async () => {
    const count = await createOpenAIProvider({
      loadEstimator: async () => {
        throw new Error('broken install');
      },
    }).countTokens({ messages: conversation });
    expect(count.accuracy).toBe('estimated');
  });

  it('uses a loaded tokenizer, once per model, as exact', async () => {
    const loads: string[] = [];
    const tokenizer = {
      ...createMessageEstimator({ name: 'approximate:1', countText: (text) => Math.ceil(text.length / 1) }),
      name: 'tiktoken:o200k_base',
    };
    const provider = createOpenAIProvider({
      loadEstimator: async (model) => {
        loads.push(model);
        return tokenizer;
      },
    });
    const first = await provider.countTokens({ messages: conversation });
    await provider.countTokens({ messages: conversation });
    expect(first).toMatchObject({ accuracy: 'exact', source: 'tiktoken:o200k_base' });
    expect(loads).toEqual(['gpt-5.4']);
  });
});

describe('modelLimits', () => {
  it('knows current models by prefix, preferring the longest', () => {
    const provider = createOpenAIProvider();
    expect(provider.modelLimits('gpt-4o-mini-2024-07-18')).toEqual({
      contextWindow: 128_000,
      maxOutputTokens: 16_384,
    });
    expect(provider.modelLimits('gpt-4.1-2025-04-14')).toEqual({
      contextWindow: 1_047_576,
      maxOutputTokens: 32_768,
    });
    expect(provider.modelLimits('gpt-5.4-mini')).toEqual({
      contextWindow: 400_000,
      maxOutputTokens: 128_000,
    });
    expect(provider.modelLimits('gpt-4')).toEqual({ contextWindow: 8_192, maxOutputTokens: 8_192 });
  });

  it('gives the full window with the long-context setting', () => {
    expect(createOpenAIProvider().modelLimits('gpt-5.4').contextWindow).toBe(272_000);
    expect(createOpenAIProvider({ longContext: true }).modelLimits('gpt-5.4').contextWindow).toBe(1_050_000);
  });

  it('warns once for an unknown model, uses the default, and takes overrides', () => {
    const warnings: string[] = [];
    const provider = createOpenAIProvider({
      model: 'my-finetune',
      warn: (message) => warnings.push(message),
      modelLimits: { 'local-llama': { contextWindow: 32_000, maxOutputTokens: 2_000 } },
    });
    expect(provider.modelLimits()).toEqual({ contextWindow: 128_000, maxOutputTokens: 16_384 });
    provider.modelLimits();
    expect(warnings).toHaveLength(1);
    expect(provider.modelLimits('local-llama')).toEqual({ contextWindow: 32_000, maxOutputTokens: 2_000 });
    expect(warnings).toHaveLength(1);
  });
});
