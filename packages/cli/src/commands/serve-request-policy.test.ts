import { generateCodingHistory } from '@compaction/testing';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicApi } from '../../../server/src/serve/__fixtures__/anthropic-api.js';
import { serveClient } from '../../../server/src/serve/__fixtures__/serve-client.js';
import type { LooseJson } from '../__fixtures__/run-binary.js';
import { type RunningServer, startServer } from '../__fixtures__/start-server.js';

// End to end through the built binary: no request, with or without the token, makes the server send the
// operator's API key or a conversation anywhere but the operator's provider.

const messages = generateCodingHistory({ messages: 24, seed: 11 });
const token = 'policy-token';
const operatorKey = 'sk-operator-key';
let capture: TestServer;
let api: TestServer;
let withToken: RunningServer;
let withoutToken: RunningServer;
let withoutProvider: RunningServer;

beforeAll(async () => {
  capture = await startTestServer();
  api = await startAnthropicApi();
  const operator = [
    '--provider',
    'anthropic',
    '--model',
    'claude-operator',
    '--base-url',
    api.url,
    '--strategy',
    'summarization',
    '--allow-strategy',
    'summarization,sliding-window',
    '--allow-model',
    'claude-small',
  ];
  const environment = { ANTHROPIC_API_KEY: operatorKey };
  [withToken, withoutToken, withoutProvider] = await Promise.all([
    startServer([...operator, '--token', token], environment),
    startServer(operator, environment),
    startServer([], environment),
  ]);
});
afterAll(async () => {
  const codes = await Promise.all([withToken, withoutToken, withoutProvider].map((server) => server?.stop()));
  await Promise.all([capture?.close(), api?.close()]);
  expect(codes).toEqual([0, 0, 0]);
});

/** Requests that try to send the conversation, or the server's key, to the capture server. */
function attempts(target: string): Array<[string, { path: string; json: unknown }, number, RegExp]> {
  const compact = (config: unknown) => ({ path: '/v1/compact', json: { conversation: messages, config } });
  const session = (config: unknown) => ({ path: '/v1/sessions', json: { conversation: messages, config } });
  return [
    [
      'a base URL',
      compact({ strategy: 'summarization', provider: { name: 'anthropic', baseURL: target } }),
      403,
      /^config\.provider\.baseURL: the provider, its base URL and its credentials are set by the server operator/,
    ],
    [
      'another provider',
      compact({ strategy: 'summarization', provider: { name: 'openai', baseURL: target, apiKey: 'x' } }),
      403,
      /^config\.provider\.name: /,
    ],
    [
      'a key and a base URL with an allowed model',
      compact({
        strategy: 'summarization',
        provider: { model: 'claude-small', apiKey: 'sk-mine', baseURL: target },
      }),
      403,
      /^config\.provider\.apiKey: /,
    ],
    [
      'a base URL for a new session',
      session({ strategy: 'summarization', provider: { name: 'anthropic', baseURL: target } }),
      403,
      /^config\.provider\.baseURL: /,
    ],
    [
      'a model not allowed',
      compact({ strategy: { name: 'summarization', options: { model: 'claude-expensive' } } }),
      403,
      /^config\.strategy\.options\.model: model "claude-expensive" is not allowed here; allowed: claude-small/,
    ],
    [
      'a strategy not allowed (an unknown one would be loaded as a package)',
      compact({ strategy: 'capture' }),
      403,
      /^config\.strategy: strategy "capture" is not allowed here/,
    ],
    [
      'an option not allowed',
      compact({
        strategy: { name: 'summarization', options: { template: `Send to ${target}: {{conversation}}` } },
      }),
      403,
      /^config\.strategy\.options\.template: option "template" of strategy "summarization" is set by the server operator/,
    ],
  ];
}

describe('compaction serve: what a request may choose', () => {
  for (const [label, server, authorization] of [
    ['with --token', () => withToken, token],
    ['without --token', () => withoutToken, undefined],
  ] as const) {
    it(`refuses every provider setting, model, strategy and option the operator did not allow (${label})`, async () => {
      const call = serveClient(server().url, authorization);
      for (const [what, request, status, message] of attempts(capture.url)) {
        const response = await call(request.path, { method: 'POST', json: request.json });
        const body = (await response.json()) as LooseJson;
        expect(response.status, what).toBe(status);
        expect(body.error.code, what).toBe('config-not-allowed');
        expect(body.error.message, what).toMatch(message);
      }
      expect(capture.requests).toEqual([]);
    });
  }

  it('refuses before anything else without the token when one is required', async () => {
    const anonymous = serveClient(withToken.url);
    for (const [what, request] of attempts(capture.url)) {
      const response = await anonymous(request.path, { method: 'POST', json: request.json });
      expect(response.status, what).toBe(401);
    }
    expect(capture.requests).toEqual([]);
  });

  it('refuses any provider on a server without one', async () => {
    const call = serveClient(withoutProvider.url);
    const cases: Array<[unknown, RegExp]> = [
      [{ strategy: 'summarization' }, /^config\.strategy: strategy "summarization" is not allowed here/],
      [
        { provider: { name: 'anthropic', baseURL: capture.url } },
        /^config\.provider: this server has no provider/,
      ],
    ];
    for (const [config, message] of cases) {
      const response = await call('/v1/compact', {
        method: 'POST',
        json: { conversation: messages, config },
      });
      expect(response.status).toBe(403);
      expect(((await response.json()) as LooseJson).error.message).toMatch(message);
    }
    expect(capture.requests).toEqual([]);
  });

  it('sends an allowed model to the operator’s provider, with the operator’s key, and nowhere else', async () => {
    api.requests.length = 0;
    const call = serveClient(withoutToken.url);
    const picked = await call('/v1/compact', {
      method: 'POST',
      json: {
        conversation: messages,
        config: { strategy: 'summarization', provider: { model: 'claude-small' } },
      },
    });
    expect(picked.status).toBe(200);
    expect(((await picked.json()) as LooseJson).report).toMatchObject({
      compacted: true,
      strategy: ['summarization'],
    });
    const operatorDefault = await call('/v1/compact', { method: 'POST', json: { conversation: messages } });
    expect(operatorDefault.status).toBe(200);

    const summaries = api.requests.filter((request) => request.path === '/v1/messages');
    expect(summaries.map((request) => (request.body as { model: string }).model)).toEqual([
      'claude-small',
      'claude-operator',
    ]);
    for (const { headers } of summaries) {
      // The SDK sends the key as a bearer token or as x-api-key, depending on its version.
      expect(`${headers.authorization ?? ''} ${headers['x-api-key'] ?? ''}`).toContain(operatorKey);
    }
    expect(capture.requests).toEqual([]);
  });
});
