import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../__fixtures__/temporary-directory.js';
import { createInstalledStrategyRegistry } from '../config/installed-strategies.js';
import { resolveSettings } from '../config/resolve-settings.js';
import { CliError } from '../errors/cli-error.js';
import { type CompactionProxy, createCompactionProxy } from './compaction-proxy.js';
import { parseUpstreams } from './upstreams.js';

// The proxy as a handler an application mounts under a path of its own, next to its own routes.

let upstream: TestServer;
let proxy: CompactionProxy;
let application: Server;
let url: string;
beforeAll(async () => {
  upstream = await startTestServer();
  upstream.handle('/v1/messages', () => ({ body: { type: 'message', content: [] } }));
  const registry = await createInstalledStrategyRegistry();
  const settings = resolveSettings(registry, { 'context-window': '200000' }, temporaryDirectory());
  proxy = await createCompactionProxy({
    settings,
    registry,
    upstreams: parseUpstreams([upstream.url]),
    basePath: '/llm/',
    log: () => {},
  });
  application = createServer((request, response) => {
    if (request.url === '/own') response.end('own route');
    else proxy.handle(request, response);
  });
  await new Promise<void>((resolve) => application.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(application.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => application.close(() => resolve()));
  await proxy.close();
  await upstream.close();
});

const messagesRequest = {
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    'x-api-key': 'client-key',
    'anthropic-version': '2023-06-01',
  },
  body: JSON.stringify({
    model: 'claude-sonnet-4-5',
    max_tokens: 16,
    messages: [{ role: 'user', content: 'Hi' }],
  }),
};

describe('createCompactionProxy mounted under a base path', () => {
  it('forwards a request below the base path to the upstream path without it', async () => {
    const answer = await fetch(`${url}/llm/v1/messages`, messagesRequest);
    expect(answer.status).toBe(200);
    expect(upstream.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v1/messages' });
  });

  it('answers its status below the base path, and the application its own routes', async () => {
    const status = await fetch(`${url}/llm/compaction/status`);
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ upstreams: { anthropic: `${upstream.url}/` } });
    expect(await (await fetch(`${url}/own`)).text()).toBe('own route');
  });

  it('answers 404 to a request outside the base path, and sends it nowhere', async () => {
    const sent = upstream.requests.length;
    for (const path of ['/v1/messages', '/llmother/v1/messages']) {
      const answer = await fetch(`${url}${path}`, messagesRequest);
      expect(answer.status, path).toBe(404);
      expect(((await answer.json()) as { error: { code: string } }).error.code, path).toBe('not-found');
    }
    expect(upstream.requests.length).toBe(sent);
  });

  it('refuses a base path that does not start with a slash', async () => {
    const registry = await createInstalledStrategyRegistry();
    const settings = resolveSettings(registry, {}, temporaryDirectory());
    const created = createCompactionProxy({
      settings,
      registry,
      upstreams: parseUpstreams([upstream.url]),
      basePath: 'llm',
    });
    await expect(created).rejects.toSatisfy(
      (error) => CliError.isInstance(error) && /basePath must start with "\/"/.test((error as Error).message),
    );
  });
});
