import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { CompactionStore, Message } from '@compaction/core';
import {
  type CompactionServerSettings,
  createCompactionHttpServer,
  createInstalledStrategyRegistry,
  resolveSettings,
} from '@compaction/server';
import { openPostgresCompactionStore } from '@compaction/store-postgres';
import { createSqliteCompactionStore } from '@compaction/store-sqlite';
import { startTestPostgres } from '@compaction/testing/postgres-server';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { serveClient } from '../../../server/src/serve/__fixtures__/serve-client.js';
import { example, type LooseJson, runBinary, temporaryDirectory } from '../__fixtures__/run-binary.js';
import { startServer } from '../__fixtures__/start-server.js';

// What serve deletes from its store: a deleted or expired session whole (messages, compaction records with the
// messages they removed, archived text), a session past the retention, and nothing of a creation the session
// cap refused. Checked in the store itself: the server's own answers say 404 for a deleted session either way.
const postgres = await startTestPostgres();
afterAll(() => postgres?.stop());

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const history = JSON.parse(readFileSync(example, 'utf8')) as Message[];
/** A conversation that compacts as soon as a session starts from it, archiving its tool results. */
const conversation = history.slice(0, 24);
const json = async (response: Response) => (await response.json()) as LooseJson;

/** `createCompactionHttpServer` on `store`, listening on loopback. */
async function serveInProcess(store: CompactionStore, options: Partial<CompactionServerSettings> = {}) {
  const registry = await createInstalledStrategyRegistry();
  const settings = resolveSettings(
    registry,
    { strategy: 'tool-result-truncation,sliding-window', 'context-window': '3000' },
    temporaryDirectory(),
  );
  const server = createCompactionHttpServer({ settings, registry, store, ...options });
  await server.restored;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => server.shutdown(1000));
  return serveClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
}

function sqliteStore() {
  const store = createSqliteCompactionStore({ path: join(temporaryDirectory(), 'sessions.sqlite') });
  closers.push(() => store.close());
  return store;
}

/** Starts a session that compacted on creation; resolves with its id and the handles it archived. */
async function compactedSession(call: ReturnType<typeof serveClient>, store: CompactionStore) {
  const created = await call('/v1/sessions', { method: 'POST', json: { conversation } });
  expect(created.status).toBe(201);
  const session = await json(created);
  expect(session.compacted).toBe(true);
  const records = await store.list(session.id);
  expect(records.length).toBeGreaterThan(0);
  const handles = records.flatMap((record) => record.archived ?? []).map((item) => item.handle);
  return { id: session.id as string, handles };
}

/** Checks that the store holds nothing of the session, and the server answers 404 for it. */
async function expectGone(
  call: ReturnType<typeof serveClient>,
  store: CompactionStore,
  id: string,
  handles: string[],
) {
  expect(await store.list(id)).toEqual([]);
  expect(await store.getSessionMetadata(id)).toBeUndefined();
  expect(await store.sessions()).not.toContain(id);
  expect((await call(`/v1/sessions/${id}/compactions`)).status).toBe(404);
  for (const handle of handles) expect((await call(`/v1/sessions/${id}/archive/${handle}`)).status).toBe(404);
}

describe('compaction serve: what deletion leaves in the store (SQLite)', () => {
  it('deletes a session whole on DELETE: records, removed messages, archived text, metadata', async () => {
    const store = sqliteStore();
    const call = await serveInProcess(store);
    const gone = await compactedSession(call, store);
    const kept = await compactedSession(call, store);
    expect(gone.handles.length).toBeGreaterThan(0);
    expect((await call(`/v1/sessions/${gone.id}/archive/${gone.handles[0]}`)).status).toBe(200);
    expect((await call(`/v1/sessions/${gone.id}`, { method: 'DELETE' })).status).toBe(204);
    await expectGone(call, store, gone.id, gone.handles);
    expect((await call(`/v1/sessions/${kept.id}/archive/${kept.handles[0]}`)).status).toBe(200);
    expect((await store.list(kept.id)).length).toBeGreaterThan(0);
  });

  it('deletes an expired session whole', async () => {
    const store = sqliteStore();
    const call = await serveInProcess(store, { sessionIdleMs: 300 });
    const expiring = await compactedSession(call, store);
    await expect.poll(() => store.sessions(), { timeout: 5000 }).not.toContain(expiring.id);
    await expectGone(call, store, expiring.id, expiring.handles);
  });

  it('writes nothing for a creation the session cap refuses, even when creations run at once', async () => {
    const store = sqliteStore();
    const call = await serveInProcess(store, { maxSessions: 1 });
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => call('/v1/sessions', { method: 'POST', json: { conversation } })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 429, 429, 429]);
    const created = await json(answers.find((answer) => answer.status === 201)!);
    expect(await store.sessions()).toEqual([created.id]);
    // The place of a refused or failed creation is given back: after a delete, one more fits.
    expect((await call(`/v1/sessions/${created.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(
      (await call('/v1/sessions', { method: 'POST', json: { conversation: [{ role: 'robot' }] } })).status,
    ).toBe(400);
    expect((await call('/v1/sessions', { method: 'POST', json: {} })).status).toBe(201);
  });

  it('deletes sessions past the retention age whole, and keeps newer ones', async () => {
    const store = sqliteStore();
    // Written before the server started, by nothing it serves: leftovers are swept too.
    await store.updateSessionMetadata('leftover', { note: 'no serve entry' });
    const call = await serveInProcess(store, { retention: { maxAgeMs: 1500, intervalMs: 50 } });
    const old = await compactedSession(call, store);
    await new Promise((resolve) => setTimeout(resolve, 900));
    const recent = await compactedSession(call, store);
    await expect.poll(() => store.sessions(), { timeout: 5000 }).toEqual([recent.id]);
    await expectGone(call, store, old.id, old.handles);
    expect((await call(`/v1/sessions/${recent.id}`)).status).toBe(200);
  });
});

describe('compaction serve --retention (the command)', () => {
  it('deletes sessions past the retention from its store, whole', async () => {
    const directory = temporaryDirectory();
    const server = await startServer(
      [
        '--retention',
        '1s',
        '--strategy',
        'tool-result-truncation,sliding-window',
        '--context-window',
        '3000',
      ],
      {},
      directory,
    );
    const store = createSqliteCompactionStore({ path: join(directory, '.compaction', 'sessions.sqlite') });
    try {
      const call = serveClient(server.url);
      const old = await compactedSession(call, store);
      await expect.poll(() => store.sessions(), { timeout: 10_000, interval: 200 }).toEqual([]);
      await expectGone(call, store, old.id, old.handles);
    } finally {
      await store.close();
      expect(await server.stop()).toBe(0);
    }
  });

  it('refuses a retention without a store', async () => {
    const refused = await runBinary(['serve', '--store', 'memory', '--retention-size', '1gb']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--retention and --retention-size need a store');
  });
});

describe.skipIf(postgres === undefined)(
  'compaction serve: what deletion leaves in the store (PostgreSQL)',
  () => {
    it('deletes a session whole on DELETE, in a store servers share', async () => {
      const store = await openPostgresCompactionStore({ connectionString: postgres!.createDatabase() });
      closers.push(() => store.close());
      const call = await serveInProcess(store);
      const gone = await compactedSession(call, store);
      expect((await call(`/v1/sessions/${gone.id}`, { method: 'DELETE' })).status).toBe(204);
      await expectGone(call, store, gone.id, gone.handles);
    });
  },
);
