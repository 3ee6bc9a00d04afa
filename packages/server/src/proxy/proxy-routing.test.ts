import { readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import Anthropic from '@anthropic-ai/sdk';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningProxy, startProxy } from './__fixtures__/start-proxy.js';
import { pathFamily } from './route-request.js';

// Two capture upstreams, one per provider: a credential must never reach the other provider's, whatever path
// the client calls, and a request the proxy cannot place is refused without being sent anywhere.

let anthropicUpstream: TestServer;
let openaiUpstream: TestServer;
let proxy: RunningProxy;
beforeAll(async () => {
  anthropicUpstream = await startTestServer();
  openaiUpstream = await startTestServer();
  proxy = await startProxy([`anthropic=${anthropicUpstream.url}`, `openai=${openaiUpstream.url}`], {
    'context-window': '200000',
  });
});
afterEach(() => {
  anthropicUpstream.reset();
  openaiUpstream.reset();
});
afterAll(async () => {
  await proxy.close();
  await anthropicUpstream.close();
  await openaiUpstream.close();
});

const anthropicKey = 'sk-ant-api03-client-secret';
const openaiKey = 'sk-proj-client-secret';
const anthropicHeaders = { authorization: `Bearer ${anthropicKey}`, 'anthropic-version': '2023-06-01' };
const openaiHeaders = { authorization: `Bearer ${openaiKey}` };

interface Answer {
  status: number;
  body: { error?: { code?: string; message?: string } };
}

/** Sends a raw request to the proxy (the path exactly as given, no client normalising it). */
function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer | string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const address = new URL(proxy.url);
    const outgoing = httpRequest(
      // A connection per request: a refusal closes its connection, which a pooled socket may not see in time.
      { host: address.hostname, port: address.port, method, path, headers, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let parsed: Answer['body'] = {};
          try {
            parsed = JSON.parse(text);
          } catch {}
          resolve({ status: response.statusCode ?? 0, body: parsed });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/**
 * Every path an installed SDK calls, read from its sources (`this._client.get(path`/v1/models/${id}`)`): the
 * literal part up to the first parameter, with a placeholder for it.
 */
function sdkPaths(packageName: string, prefix: string): string[] {
  const entry = createRequire(import.meta.url).resolve(packageName);
  const resources = join(dirname(entry), 'resources');
  const paths = new Set<string>();
  const walk = (folder: string) => {
    for (const item of readdirSync(folder, { withFileTypes: true })) {
      const file = join(folder, item.name);
      if (item.isDirectory()) walk(file);
      else if (item.name.endsWith('.mjs')) {
        for (const match of readFileSync(file, 'utf8').matchAll(/_client\.\w+\((?:path\s*)?[`']([^`'$]*)/g)) {
          // A literal query (`/responses?beta=true`) is not part of the path the proxy routes by.
          const literal = match[1]!.split('?')[0]!;
          if (literal.startsWith('/')) paths.add(`${prefix}${literal}${literal.endsWith('/') ? 'id_1' : ''}`);
        }
      }
    }
  };
  walk(resources);
  return [...paths].sort();
}

describe('compaction proxy: routing by the request’s own provider', () => {
  const anthropicPaths = sdkPaths('@anthropic-ai/sdk', '');
  const openaiPaths = sdkPaths('openai', '/v1');

  it('knows every path the installed SDKs call', () => {
    expect(anthropicPaths.length).toBeGreaterThan(40);
    expect(openaiPaths.length).toBeGreaterThan(40);
    expect(anthropicPaths.filter((path) => pathFamily(path) === 'unknown')).toEqual([]);
    expect(anthropicPaths.filter((path) => pathFamily(path) === 'openai')).toEqual([]);
    expect(openaiPaths.filter((path) => pathFamily(path) === 'unknown')).toEqual([]);
    expect(openaiPaths.filter((path) => pathFamily(path) === 'anthropic')).toEqual([]);
  });

  it('sends an Anthropic credential to the Anthropic upstream only, on every path the Anthropic SDK calls', async () => {
    for (const path of anthropicPaths) {
      await send('GET', path, anthropicHeaders);
    }
    expect(openaiUpstream.requests.map((request) => request.path)).toEqual([]);
    expect(anthropicUpstream.requests.map((request) => request.path)).toEqual(anthropicPaths);
  });

  it('sends an OpenAI credential to the OpenAI upstream only, on every path the OpenAI SDK calls', async () => {
    for (const path of openaiPaths) {
      await send('GET', path, openaiHeaders);
    }
    expect(anthropicUpstream.requests.map((request) => request.path)).toEqual([]);
    expect(openaiUpstream.requests.map((request) => request.path)).toEqual(openaiPaths);
  });

  it('routes the real SDKs’ calls to paths both APIs have by their marks', async () => {
    const anthropic = new Anthropic({ apiKey: anthropicKey, baseURL: proxy.url, maxRetries: 0 });
    const openai = new OpenAI({ apiKey: openaiKey, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
    const list = { status: 200, body: { data: [], has_more: false, first_id: null, last_id: null } };
    anthropicUpstream.handle('/v1/models', () => list);
    anthropicUpstream.handle('/v1/files', () => list);
    anthropicUpstream.handle('/v1/skills', () => list);
    openaiUpstream.handle('/v1/models', () => ({ status: 200, body: { object: 'list', data: [] } }));
    openaiUpstream.handle('/v1/files', () => ({ status: 200, body: { object: 'list', data: [] } }));
    await anthropic.models.list();
    await anthropic.beta.files.list();
    await anthropic.beta.skills.list();
    await openai.models.list();
    await openai.files.list();
    expect(anthropicUpstream.requests.map((request) => request.path)).toEqual([
      '/v1/models',
      '/v1/files',
      '/v1/skills',
    ]);
    expect(openaiUpstream.requests.map((request) => request.path)).toEqual(['/v1/models', '/v1/files']);
    for (const request of openaiUpstream.requests) {
      expect(JSON.stringify(request.headers)).not.toContain('sk-ant-');
      expect(request.headers['x-api-key']).toBeUndefined();
    }
    for (const request of anthropicUpstream.requests) {
      expect(JSON.stringify(request.headers)).not.toContain(openaiKey);
    }
  });

  it('refuses, without forwarding, what belongs to another provider, to both, to none, or is not in normal form', async () => {
    const cases: [string, string, Record<string, string>, number, string][] = [
      // Gemini: another provider's path and key.
      [
        'POST',
        '/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
        { 'x-goog-api-key': 'AIza-secret' },
        400,
        'foreign-credential',
      ],
      ['GET', '/v1/models?key=AIza-secret', {}, 400, 'foreign-credential'],
      [
        'GET',
        '/v1/models',
        { ...openaiHeaders, 'x-amz-security-token': 'secret' },
        400,
        'foreign-credential',
      ],
      ['POST', '/v1/chat/completions', { 'x-api-key': anthropicKey }, 400, 'credential-mismatch'],
      ['POST', '/v1/responses', anthropicHeaders, 400, 'credential-mismatch'],
      [
        'POST',
        '/v1/messages',
        { ...openaiHeaders, 'anthropic-version': '2023-06-01' },
        400,
        'credential-mismatch',
      ],
      [
        'GET',
        '/v1/models',
        { 'x-api-key': anthropicKey, 'openai-organization': 'org-1' },
        400,
        'ambiguous-route',
      ],
      ['GET', '/v1/models', {}, 400, 'ambiguous-route'],
      ['GET', '/v2/anything', anthropicHeaders, 404, 'unknown-path'],
      ['GET', '/', openaiHeaders, 404, 'unknown-path'],
      ['POST', '/\\attacker.invalid/v1/messages', anthropicHeaders, 400, 'path-not-normal'],
      ['POST', '/v1/..//v1/messages', anthropicHeaders, 400, 'path-not-normal'],
      ['POST', '/v1/%2e%2e/messages', anthropicHeaders, 400, 'path-not-normal'],
      ['POST', '/v1/messages/./count_tokens', anthropicHeaders, 400, 'path-not-normal'],
    ];
    for (const [method, path, headers, status, code] of cases) {
      const body = method === 'POST' ? '{}' : undefined;
      const answer = await send(method, path, { 'content-type': 'application/json', ...headers }, body);
      expect([answer.status, answer.body.error?.code], path).toEqual([status, code]);
      expect(answer.body.error?.message, path).toContain('not forwarded');
    }
    expect(anthropicUpstream.requests).toHaveLength(0);
    expect(openaiUpstream.requests).toHaveLength(0);
  });

  it('forwards none of its own x-compaction-* headers', async () => {
    anthropicUpstream.enqueue('/v1/messages/count_tokens', { body: { input_tokens: 3 } });
    await send(
      'POST',
      '/v1/messages/count_tokens',
      {
        ...anthropicHeaders,
        'content-type': 'application/json',
        'x-compaction-conversation': 'ticket-1',
        'x-compaction-debug': 'on',
      },
      '{"model":"m","messages":[{"role":"user","content":"Hi"}]}',
    );
    const [received] = anthropicUpstream.requests;
    expect(Object.keys(received?.headers ?? {}).filter((name) => name.startsWith('x-compaction-'))).toEqual(
      [],
    );
  });
});

describe('compaction proxy: compressed request bodies', () => {
  const conversation = {
    model: 'claude-sonnet-5-5',
    max_tokens: 10,
    messages: [{ role: 'user', content: 'Hello' }],
  };

  it('reads a gzip body, and sends it on decoded', async () => {
    anthropicUpstream.enqueue('/v1/messages', { body: { type: 'message', content: [] } });
    const answer = await send(
      'POST',
      '/v1/messages',
      { ...anthropicHeaders, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      gzipSync(JSON.stringify(conversation)),
    );
    expect(answer.status).toBe(200);
    const [received] = anthropicUpstream.requests;
    expect(received?.body).toEqual(conversation);
    expect(received?.headers['content-encoding']).toBeUndefined();
  });

  it('refuses a body that is not what its encoding says, and one that unpacks past the limit', async () => {
    const broken = await send(
      'POST',
      '/v1/messages',
      { ...anthropicHeaders, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      'not gzip at all',
    );
    expect([broken.status, broken.body.error?.code]).toEqual([400, 'invalid-content-encoding']);
    // 40 MB of spaces pack into a few kilobytes; unpacked, they pass the proxy's 32 MiB limit.
    const bomb = gzipSync(Buffer.alloc(40 * 1024 * 1024, ' '));
    const tooLarge = await send(
      'POST',
      '/v1/messages',
      { ...anthropicHeaders, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      bomb,
    );
    expect(tooLarge.status).toBe(413);
    expect(anthropicUpstream.requests).toHaveLength(0);
  });

  it('forwards a body in an encoding it does not read as it came, and says so', async () => {
    anthropicUpstream.enqueue('/v1/messages', { body: { type: 'message', content: [] } });
    const before = proxy.server.status().unreadBodies;
    const raw = JSON.stringify(conversation);
    await send(
      'POST',
      '/v1/messages',
      { ...anthropicHeaders, 'content-type': 'application/json', 'content-encoding': 'compress' },
      raw,
    );
    expect(anthropicUpstream.requests[0]?.rawBody).toBe(raw);
    expect(anthropicUpstream.requests[0]?.headers['content-encoding']).toBe('compress');
    expect(proxy.server.status().unreadBodies).toBe(before + 1);
    expect(proxy.lines.join('\n')).toContain('unknown encoding "compress"');
  });
});

describe('compaction proxy: upstream timeout', () => {
  it('answers 504 when the upstream sends nothing in time', async () => {
    const silent = await startTestServer();
    const quick = await startProxy([silent.url], {}, { limits: { upstreamTimeoutMs: 200 } });
    try {
      silent.enqueue('/v1/messages', { body: {}, delayMs: 5_000 });
      const started = performance.now();
      const answer = await fetch(`${quick.url}/v1/messages`, {
        method: 'POST',
        headers: { ...anthropicHeaders, 'content-type': 'application/json' },
        body: '{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"Hi"}]}',
      });
      expect(answer.status).toBe(504);
      expect(((await answer.json()) as Answer['body']).error?.code).toBe('upstream-timeout');
      expect(performance.now() - started).toBeLessThan(4_000);
    } finally {
      await quick.close();
      await silent.close();
    }
  });
});
