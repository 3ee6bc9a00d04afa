import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { CompactionStore, Message } from '@compaction/core';
import {
  createCompactionHttpServer,
  createInstalledStrategyRegistry,
  resolveSettings,
} from '@compaction/server';
import { openPostgresCompactionStore } from '@compaction/store-postgres';
import { createSqliteCompactionStore } from '@compaction/store-sqlite';
import { startTestPostgres } from '@compaction/testing/postgres-server';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { serveClient } from '../../../server/src/serve/__fixtures__/serve-client.js';
import { type LooseJson, temporaryDirectory } from '../__fixtures__/run-binary.js';
import { type RunningServer, startServer } from '../__fixtures__/start-server.js';

// A store's failures name its database or file: they go to the server's log, never into an answer, which says
// `store-failed` and nothing more. Ids that name nothing are refused before they reach the store.
const postgres = await startTestPostgres();
afterAll(() => postgres?.stop());

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  vi.restoreAllMocks();
});

const text = (value: string): Message => ({ role: 'user', content: [{ type: 'text', text: value }] });

/** `createCompactionHttpServer` on `store`, listening on loopback, with what it writes on standard error. */
async function serveInProcess(store: CompactionStore) {
  const registry = await createInstalledStrategyRegistry();
  const settings = resolveSettings(registry, { strategy: 'sliding-window' }, temporaryDirectory());
  const server = createCompactionHttpServer({ settings, registry, store });
  await server.restored;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => server.shutdown(1000));
  let logged = '';
  const write = process.stderr.write.bind(process.stderr) as (chunk: string | Uint8Array) => boolean;
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    logged += String(chunk);
    return write(chunk);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { call: serveClient(url), logged: () => logged };
}

/** An answer's status and body, checked to name none of `secrets`. */
async function answerWithout(response: Response, secrets: string[]) {
  const body = await response.text();
  for (const secret of secrets) expect(body, `the answer names ${secret}`).not.toContain(secret);
  return { status: response.status, error: (JSON.parse(body) as LooseJson).error };
}

describe('compaction serve: store failures on SQLite', () => {
  it('answers 500 store-failed without the file, and logs the file', async () => {
    const folder = temporaryDirectory();
    const store = createSqliteCompactionStore({ path: join(folder, 'sessions.sqlite') });
    const { call, logged } = await serveInProcess(store);
    const created = await call('/v1/sessions', { method: 'POST', json: { conversation: [text('start')] } });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as LooseJson;

    await store.close();
    const appended = await call(`/v1/sessions/${id}/messages`, {
      method: 'POST',
      json: { messages: [text('more')] },
    });
    const answer = await answerWithout(appended, [folder, 'sqlite', 'SQLite']);
    expect(answer).toEqual({
      status: 500,
      error: { code: 'store-failed', message: 'the session store failed; the server log has the details' },
    });
    expect(logged()).toContain(join(folder, 'sessions.sqlite'));
  });
});

describe.skipIf(postgres === undefined)('compaction serve: store failures on PostgreSQL', () => {
  it('answers an id with a NUL byte 404, before it reaches the database', async () => {
    const url = postgres!.createDatabase();
    const server: RunningServer = await startServer(['--store', url]);
    closers.push(() => server.stop());
    const { port, pathname } = new URL(url);
    const secrets = [port, pathname.slice(1), 'postgres', 'PostgreSQL', '127.0.0.1'];
    const call = serveClient(server.url);
    for (const path of ['/v1/sessions/a%00b', '/v1/sessions/%00/messages', '/v1/sessions/x%00/compactions']) {
      const method = path.endsWith('/messages') ? 'POST' : 'GET';
      const response = await call(path, { method, ...(method === 'POST' ? { json: { messages: [] } } : {}) });
      expect(await answerWithout(response, secrets), path).toMatchObject({
        status: 404,
        error: { code: 'session-not-found' },
      });
    }
  });

  it('answers a closed store 500 store-failed without the database', async () => {
    const url = postgres!.createDatabase();
    const store = await openPostgresCompactionStore({ connectionString: url });
    const { call, logged } = await serveInProcess(store);
    const created = await call('/v1/sessions', { method: 'POST', json: {} });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as LooseJson;
    await store.close();
    const { port, pathname } = new URL(url);
    const secrets = [port, pathname.slice(1), 'postgres', 'PostgreSQL', '127.0.0.1'];
    for (const [method, path] of [
      ['GET', `/v1/sessions/${id}`],
      ['POST', `/v1/sessions/${id}/messages`],
    ] as const) {
      const response = await call(path, { method, ...(method === 'POST' ? { json: { messages: [] } } : {}) });
      const answer = await answerWithout(response, secrets);
      expect(answer.error.code, `${method} ${path}`).toBe('store-failed');
      expect(answer.status).toBe(500);
    }
    expect(logged()).toContain(pathname.slice(1));
  });
});
