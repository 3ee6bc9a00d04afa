import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemoryCompactionStore, type Message } from '@compaction/core';
import { afterEach, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../__fixtures__/temporary-directory.js';
import { createInstalledStrategyRegistry } from '../config/installed-strategies.js';
import { resolveSettings } from '../config/resolve-settings.js';
import { listenCompactionServer } from './compaction-http-server.js';
import { type CompactionService, createCompactionServer } from './compaction-server.js';

// The HTTP API as a handler an application mounts in its own server, beside its own routes, and stops without
// closing that server.

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function mount(
  store = new InMemoryCompactionStore(),
): Promise<{ service: CompactionService; url: string }> {
  const registry = await createInstalledStrategyRegistry();
  const settings = resolveSettings(registry, { 'context-window': '16k' }, temporaryDirectory());
  const service = createCompactionServer({ settings, registry, store });
  const application: Server = createServer((request, response) => {
    if (request.url === '/own') response.end('own route');
    else service.handle(request, response);
  });
  await new Promise<void>((resolve) => application.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => application.close(resolve)));
  closers.push(() => service.close(0));
  return { service, url: `http://127.0.0.1:${(application.address() as AddressInfo).port}` };
}

const text = (value: string): Message => ({ role: 'user', content: [{ type: 'text', text: value }] });

describe('createCompactionServer mounted in an application server', () => {
  it('answers the API next to the application routes, and its stop leaves the application serving', async () => {
    const store = new InMemoryCompactionStore();
    const { service, url } = await mount(store);
    const created = await fetch(`${url}/v1/sessions`, {
      method: 'POST',
      body: JSON.stringify({ conversation: [text('Fix the failing test.')] }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect(await (await fetch(`${url}/own`)).text()).toBe('own route');

    expect(await service.close()).toEqual({ unfinished: 0 });
    const refused = await fetch(`${url}/v1/health`);
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('shutting-down');
    expect(await (await fetch(`${url}/own`)).text()).toBe('own route');
    // The session stays in the store for the next start.
    expect(await store.getSessionMetadata(id)).toBeDefined();
    // A second stop is the same stop.
    expect(service.close()).toBe(service.close());
  });

  it('listens on loopback through listenCompactionServer, with the URL it answers on', async () => {
    const registry = await createInstalledStrategyRegistry();
    const settings = resolveSettings(registry, {}, temporaryDirectory());
    const { server, url } = await listenCompactionServer({ settings, registry }, { port: 0 });
    closers.push(() => server.shutdown(100));
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await fetch(`${url}/v1/health`)).json()).toEqual({ ok: true, sessions: 0, compactions: 0 });
  });

  it('stops the service when it cannot listen, and throws the listen error', async () => {
    const registry = await createInstalledStrategyRegistry();
    const settings = resolveSettings(registry, {}, temporaryDirectory());
    const { server, url } = await listenCompactionServer({ settings, registry }, { port: 0 });
    closers.push(() => server.shutdown(100));
    const port = Number(new URL(url).port);
    await expect(listenCompactionServer({ settings, registry }, { port })).rejects.toMatchObject({
      code: 'EADDRINUSE',
    });
  });
});
