import Anthropic from '@anthropic-ai/sdk';
import {
  type CompactionStrategy,
  ContextOverflowError,
  createCompactor,
  InvalidOptionsError,
  type Message,
  ProviderError,
} from '@compaction/core';
import { resolveProviderConfig } from '@compaction/testing';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { describeProviderTransport } from '@compaction/testing/vitest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { longContextBeta } from './anthropic-model-limits.js';
import { createAnthropicProvider } from './anthropic-provider.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  server.handle('/v1/messages', () => ({ body: messageResponse('## Summary\nThe agent fixed the test.') }));
  server.handle('/v1/messages/count_tokens', () => ({ body: { input_tokens: 1234 } }));
});

function messageResponse(text: string, stopReason = 'end_turn') {
  return {
    id: 'msg_test',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-5-5',
    content: [{ type: 'text', text }],
    stop_reason: stopReason,
    stop_sequence: null,
    usage: {
      input_tokens: 100,
      output_tokens: 20,
      cache_read_input_tokens: 50,
      cache_creation_input_tokens: 5,
    },
  };
}

const conversation: Message[] = [
  { role: 'system', content: [{ type: 'text', text: 'Summarize the conversation.' }] },
  { role: 'user', content: [{ type: 'text', text: 'Run the tests.' }] },
  {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: 'toolu_1', toolName: 'bash', input: { command: 'npm test' } }],
  },
  {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: 'toolu_1', toolName: 'bash', output: '1 failed' }],
  },
  { role: 'user', content: [{ type: 'text', text: 'Write the summary now.' }] },
];

/** The agent's tool: the conversation above calls it, and the API accepts such a request only with tools. */
const bashTool = { name: 'bash', description: 'Runs a command.', input_schema: { type: 'object' } };

/** The conversation without its tool round, for a provider that has no tools to send. */
const textConversation = conversation.filter(
  (message) => message.role !== 'tool' && message.content.every((part) => part.type === 'text'),
);

const provider = (settings: Parameters<typeof createAnthropicProvider>[0] = {}) =>
  createAnthropicProvider({
    apiKey: 'test-key',
    baseURL: server.url,
    maxRetries: 0,
    timeout: 2000,
    tools: [bashTool],
    ...settings,
  });

describe('createAnthropicProvider over HTTP', () => {
  it('generates through messages.create and reports text, finish reason and usage', async () => {
    const result = await provider().generate({
      messages: conversation,
      maxOutputTokens: 512,
      temperature: 0,
    });
    expect(result).toEqual({
      text: '## Summary\nThe agent fixed the test.',
      finishReason: 'stop',
      usage: { inputTokens: 155, outputTokens: 20, cacheReadTokens: 50, cacheWriteTokens: 5 },
    });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.path).toBe('/v1/messages');
    expect(JSON.stringify(server.requests[0]!.headers)).toContain('test-key');
    expect(server.requests[0]!.body).toMatchSnapshot();
  });

  it('uses an injected client and its settings', async () => {
    const client = new Anthropic({ apiKey: 'injected', baseURL: server.url, maxRetries: 0 });
    const result = await createAnthropicProvider({
      client,
      model: 'claude-haiku-4-5',
      tools: [bashTool],
    }).generate({ messages: conversation });
    expect(result.text).toContain('Summary');
    expect(JSON.stringify(server.requests[0]!.headers)).toContain('injected');
    expect(server.requests[0]!.body).toMatchObject({ model: 'claude-haiku-4-5', max_tokens: 4096 });
  });

  it('maps max_tokens to finish reason length and refusal to content-filter', async () => {
    server.enqueue(
      '/v1/messages',
      { body: messageResponse('cut', 'max_tokens') },
      { body: messageResponse('', 'refusal') },
    );
    expect((await provider().generate({ messages: conversation })).finishReason).toBe('length');
    expect((await provider().generate({ messages: conversation })).finishReason).toBe('content-filter');
  });

  it('sends the long-context beta flag and custom headers', async () => {
    await provider({ longContext: true, headers: { 'x-team': 'compaction' } }).generate({
      messages: conversation,
    });
    expect(server.requests[0]!.headers['anthropic-beta']).toBe(longContextBeta);
    expect(server.requests[0]!.headers['x-team']).toBe('compaction');
  });

  it('counts tokens exactly through messages.countTokens', async () => {
    const count = await provider().countTokens({ messages: conversation });
    expect(count).toEqual({ tokens: 1234, accuracy: 'exact', source: 'anthropic:count_tokens' });
    expect(server.requests[0]!.path).toBe('/v1/messages/count_tokens');
    expect(server.requests[0]!.body).toMatchSnapshot();
  });

  it("gives a Compactor configured with countTokens: 'provider' the exact count, one call per prepare", async () => {
    server.handle('/v1/messages/count_tokens', () => ({ body: { input_tokens: 150_000 } }));
    const keepAll: CompactionStrategy = {
      specificationVersion: 'v1',
      name: 'keep-all',
      compact: async ({ messages }) => ({ messages: [...messages] }),
    };
    const budget = {
      contextWindow: 200_000,
      reservedOutputTokens: 0,
      safetyMargin: 0,
      trigger: 0.9,
      target: 0.5,
    };
    const compactor = createCompactor({
      strategy: keepAll,
      budget,
      provider: provider(),
      countTokens: 'provider',
    });
    const result = await compactor.prepare(conversation);
    expect(result.skipped).toBe('under-trigger');
    expect(server.requests.map((request) => request.path)).toEqual(['/v1/messages/count_tokens']);
    // Anchored on the exact count: the same history counts what the API said, without another call.
    expect(compactor.check(conversation).tokens).toBe(150_000);
    expect(server.requests).toHaveLength(1);
  });

  it('includes the configured tool definitions in token counts', async () => {
    const tools = [
      { name: 'bash', description: 'Run a command', input_schema: { type: 'object', properties: {} } },
    ];
    await provider({ tools }).countTokens({ messages: conversation });
    expect(server.requests[0]!.body).toMatchObject({ tools });
    expect(await provider().countTokens({ messages: [] })).toEqual({
      tokens: 0,
      accuracy: 'exact',
      source: 'anthropic:count_tokens',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('throws ContextOverflowError with the numbers on a "prompt is too long" 400', async () => {
    server.enqueue('/v1/messages', {
      status: 400,
      body: {
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message: 'prompt is too long: 208310 tokens > 200000 maximum',
        },
      },
    });
    const error = await provider()
      .generate({ messages: conversation })
      .catch((caught: unknown) => caught);
    expect(ContextOverflowError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ provider: 'anthropic', requestTokens: 208310, maximumTokens: 200000 });
  });

  it('reports a 429 as a retryable ProviderError once retries are spent', async () => {
    server.enqueue('/v1/messages', {
      status: 429,
      headers: { 'retry-after': '0' },
      body: { type: 'error', error: { type: 'rate_limit_error', message: 'Rate limited' } },
    });
    const error = await provider()
      .generate({ messages: conversation })
      .catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 429, retryable: true, provider: 'anthropic' });
  });

  it('reports a 500 and a 529 as retryable, a 401 as not retryable', async () => {
    server.enqueue(
      '/v1/messages',
      { status: 500, body: { type: 'error', error: { type: 'api_error', message: 'boom' } } },
      { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
      { status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'bad key' } } },
    );
    const errors = [];
    for (let index = 0; index < 3; index++) {
      errors.push(
        await provider()
          .generate({ messages: conversation })
          .catch((caught: unknown) => caught),
      );
    }
    expect(
      errors.map((error) => [
        ProviderError.isInstance(error),
        (error as ProviderError).status,
        (error as ProviderError).retryable,
      ]),
    ).toEqual([
      [true, 500, true],
      [true, 529, true],
      [true, 401, false],
    ]);
  });

  describeProviderTransport({
    server: () => server,
    path: '/v1/messages',
    answer: () => messageResponse('## Summary\nThe agent fixed the test.'),
    rateLimited: { type: 'error', error: { type: 'rate_limit_error', message: 'Rate limited' } },
    malformed: '{"id": "msg_1", "content": [',
    provider,
    messages: conversation,
  });

  it("is resolved by name from a config, through core's provider registry", async () => {
    const resolved = await resolveProviderConfig({
      provider: {
        name: 'anthropic',
        model: 'claude-opus-5-5',
        apiKey: 'config-key',
        baseURL: server.url,
        maxRetries: 0,
      },
      load: () => import('./index.js'),
    });
    const { loaded, strategyProviders, providers } = resolved;
    expect(loaded).toEqual(['@compaction/provider-anthropic']);
    expect(resolved.provider).toMatchObject({ name: 'anthropic', modelId: 'claude-opus-5-5' });
    expect(strategyProviders).toEqual([resolved.provider]);
    await resolved.provider!.generate({ messages: textConversation });
    // An aborted request of an earlier test may still arrive, so look for this one by its model.
    expect(server.requests.map((request) => (request.body as { model: string }).model)).toContain(
      'claude-opus-5-5',
    );
    await expect(providers.resolve({ name: 'anthropic', temprature: 1 })).rejects.toThrow(
      InvalidOptionsError,
    );
  });
});

describe('modelLimits', () => {
  it('knows current models, dated snapshots included', () => {
    const limits = createAnthropicProvider({
      model: 'claude-sonnet-4-5-20250929',
      warn: () => {},
    }).modelLimits();
    expect(limits).toEqual({ contextWindow: 200_000, maxOutputTokens: 64_000 });
    expect(createAnthropicProvider().modelLimits()).toEqual({
      contextWindow: 1_000_000,
      maxOutputTokens: 128_000,
    });
    expect(createAnthropicProvider().modelLimits('claude-opus-4-7')).toEqual({
      contextWindow: 1_000_000,
      maxOutputTokens: 128_000,
    });
    expect(createAnthropicProvider().modelLimits('claude-opus-4-1-20250805')).toEqual({
      contextWindow: 200_000,
      maxOutputTokens: 32_000,
    });
  });

  it('gives the 1M window with the long-context setting, only where the model has one', () => {
    const provider = createAnthropicProvider({ longContext: true });
    expect(provider.modelLimits('claude-sonnet-4-5').contextWindow).toBe(1_000_000);
    expect(provider.modelLimits('claude-haiku-4-5').contextWindow).toBe(200_000);
  });

  it('warns once for an unknown model and uses the documented default', () => {
    const warnings: string[] = [];
    const provider = createAnthropicProvider({
      model: 'claude-future-9',
      warn: (message) => warnings.push(message),
    });
    expect(provider.modelLimits()).toEqual({ contextWindow: 200_000, maxOutputTokens: 8_192 });
    provider.modelLimits();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('claude-future-9');
  });

  it('lets users override limits, without a warning when both are given', () => {
    const warnings: string[] = [];
    const provider = createAnthropicProvider({
      warn: (message) => warnings.push(message),
      modelLimits: {
        'claude-sonnet-4-5': { maxOutputTokens: 8_000 },
        'my-proxy-model': { contextWindow: 100_000, maxOutputTokens: 4_000 },
      },
    });
    expect(provider.modelLimits('claude-sonnet-4-5')).toEqual({
      contextWindow: 200_000,
      maxOutputTokens: 8_000,
    });
    expect(provider.modelLimits('my-proxy-model')).toEqual({
      contextWindow: 100_000,
      maxOutputTokens: 4_000,
    });
    expect(warnings).toEqual([]);
  });
});
