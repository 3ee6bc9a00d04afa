import { type Message, ProviderError } from '@compaction/core';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countOpenAIInputTokens } from './openai-input-token-count.js';
import { createOpenAIProvider } from './openai-provider.js';
import { toOpenAIResponsesInput } from './to-openai-responses-input.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

// Images are what a local count can only estimate: the endpoint prices them exactly.
const conversation: Message[] = [
  { role: 'system', content: [{ type: 'text', text: 'Describe the screenshot.' }] },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'What does the dashboard show?' },
      { type: 'image', image: 'https://example.com/dashboard.png' },
    ],
  },
];

const provider = (model: string) =>
  createOpenAIProvider({
    apiKey: 'test-key',
    baseURL: `${server.url}/v1`,
    maxRetries: 0,
    timeout: 2000,
    model,
    systemRole: 'developer',
    countTokens: 'api',
  });

describe('countTokens through the input token count endpoint', () => {
  it('sends the messages as a Responses input and returns the count the API gives', async () => {
    const inputTokens = 1000 + Math.floor(Math.random() * 1000);
    server.handle('/v1/responses/input_tokens', () => ({
      body: { object: 'response.input_tokens', input_tokens: inputTokens },
    }));
    const count = await provider('gpt-5.4').countTokens({ messages: conversation, modelId: 'gpt-4.1' });
    expect(count).toEqual({
      tokens: inputTokens,
      accuracy: 'exact',
      source: 'openai:responses.input_tokens',
    });
    expect(server.requests).toHaveLength(1);
    const request = server.requests[0]!;
    expect(request.path).toBe('/v1/responses/input_tokens');
    expect(request.headers.authorization).toBe('Bearer test-key');
    expect(request.body).toEqual({
      model: 'gpt-4.1',
      input: toOpenAIResponsesInput(conversation, { systemRole: 'developer' }),
    });
    expect(JSON.stringify(request.body)).toContain('"image_url":"https://example.com/dashboard.png"');
  });

  it('reports an API failure as a provider error', async () => {
    server.handle('/v1/responses/input_tokens', () => ({
      status: 500,
      body: { error: { message: 'boom', type: 'server_error', code: null, param: null } },
    }));
    await expect(provider('gpt-5.4').countTokens({ messages: conversation })).rejects.toSatisfy((error) =>
      ProviderError.isInstance(error),
    );
  });

  it('counts nothing without a request, and refuses a client without the endpoint', async () => {
    expect(await countOpenAIInputTokens({}, { model: 'gpt-4o', messages: [] })).toMatchObject({ tokens: 0 });
    expect(server.requests).toHaveLength(0);
    await expect(countOpenAIInputTokens({}, { model: 'gpt-4o', messages: conversation })).rejects.toThrow(
      /openai 6 or later/,
    );
  });
});
