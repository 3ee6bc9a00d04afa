import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createStoreRegistry } from '@compaction/core/stores';
import { startTestPostgres } from '@compaction/testing/postgres-server';
import {
  describeStoreConformance,
  sampleArchivingRecord,
  sampleCompactionRecord,
} from '@compaction/testing/vitest';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresStoreError } from './errors/postgres-store-error.js';
import postgresStoreDefinition from './index.js';
import { migrations, schemaVersion } from './migrations.js';
import {
  createPostgresCompactionStore,
  migratePostgresStore,
  openPostgresCompactionStore,
  PostgresCompactionStore,
} from './postgres-compaction-store.js';
import { redactConnectionString } from './redact-connection-string.js';

// A real server from Debian's packages (or PATH), on a throwaway folder; skipped with one line outside CI when
// none can be started.
const postgres = await startTestPostgres();
afterAll(() => postgres?.stop());
const urls = new WeakMap<object, string>();

const newStore = (settings: { lockTimeoutMs?: number } = {}) => {
  const connectionString = postgres!.createDatabase();
  const store = createPostgresCompactionStore({ connectionString, ...settings });
  urls.set(store, connectionString);
  return store;
};

describe.skipIf(postgres === undefined)('PostgresCompactionStore', () => {
  describeStoreConformance('postgres', {
    create: () => newStore(),
    reopen: async (store) => {
      await store.close();
      return createPostgresCompactionStore({ connectionString: urls.get(store)! });
    },
  });

  it('is opened by a store registry from a postgres:// or postgresql:// location, migrated and reachable', async () => {
    const registry = createStoreRegistry({
      loadPackage: false,
      definitions: [postgresStoreDefinition] as never,
    });
    const connectionString = postgres!.createDatabase();
    for (const location of [connectionString, connectionString.replace(/^postgres:/, 'postgresql:')]) {
      const store = await registry.open(location, { poolSize: 2 });
      expect(store).toBeInstanceOf(PostgresCompactionStore);
      await store.updateSessionMetadata('s', { a: 1, b: 2 });
      expect(await store.updateSessionMetadata('s', { a: undefined } as never)).toEqual({ b: 2 });
      await store.updateSessionMetadata('s', { a: 1 });
      await store.close();
    }
    const unreachable = 'postgres://nobody@127.0.0.1:1/none';
    const error = await registry
      .open(unreachable, { connectionTimeoutMs: 2_000 })
      .catch((caught: unknown) => caught);
    expect(PostgresStoreError.isInstance(error)).toBe(true);
  });

  it('deletes a session after a change holding its lock commits, never in the middle of it', async () => {
    const store = newStore();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const change = store.withSessionLock('a', async () => {
      await store.append(sampleCompactionRecord('a', 1));
      locked();
      await held;
      await store.updateSessionMetadata('a', { title: 'written last' });
    });
    await lockTaken;
    // Another process's delete waits for the lock; the records it then deletes include the whole change.
    const other = createPostgresCompactionStore({ connectionString: urls.get(store)! });
    const deletion = other.deleteSession('a');
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    await Promise.all([change, deletion]);
    expect(await store.sessions()).toEqual([]);
    await Promise.all([store.close(), other.close()]);
  });

  it('writes a record once however often its append is retried', async () => {
    const store = newStore();
    const record = sampleCompactionRecord('a', 1);
    await Promise.all([store.append(record), store.append(record), store.append(structuredClone(record))]);
    await store.append(record);
    expect(await store.list('a')).toEqual([record]);
    await store.close();
  });

  it('applies migrations once, also when several processes start together, and refuses a newer schema', async () => {
    const connectionString = postgres!.createDatabase();
    const results = await Promise.all([1, 2, 3].map(() => migratePostgresStore(connectionString)));
    expect(results.flat()).toEqual(migrations.map((migration) => migration.version));
    expect(await migratePostgresStore(connectionString)).toEqual([]);
    const client = new pg.Client({ connectionString });
    await client.connect();
    await client.query("INSERT INTO compaction_schema_migrations (version, name) VALUES (99, 'future')");
    await client.end();
    await expect(openPostgresCompactionStore({ connectionString })).rejects.toMatchObject({
      reason: 'newer-schema',
      code: 'store-postgres/newer-schema',
      message: expect.stringContaining('schema 99'),
    });
  });

  it('brings a database of the first schema up to date, keeping its records, and archives in it', async () => {
    const connectionString = postgres!.createDatabase();
    const client = new pg.Client({ connectionString });
    await client.connect();
    // The database as the first version of this package left it.
    await client.query(
      'CREATE TABLE compaction_schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
    );
    for (const statement of migrations[0]!.statements) await client.query(statement);
    await client.query(
      "INSERT INTO compaction_schema_migrations (version, name) VALUES (1, 'compactions and sessions')",
    );
    const old = sampleCompactionRecord('a', 1);
    await client.query(
      `INSERT INTO compaction_records (event_id, session_id, round, started_at, event, removed_messages)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        old.event.id,
        'a',
        1,
        old.event.startedAt,
        JSON.stringify(old.event),
        JSON.stringify(old.removedMessages),
      ],
    );
    await client.end();
    expect(await migratePostgresStore(connectionString)).toEqual(
      migrations.slice(1).map((migration) => migration.version),
    );
    const store = await openPostgresCompactionStore({ connectionString });
    await store.append(sampleArchivingRecord('a', 2));
    expect(await store.list('a')).toEqual([old, sampleArchivingRecord('a', 2)]);
    await store.close();
    expect(schemaVersion).toBeGreaterThan(1);
  });

  it('indexes for search what a database of schema 2 archived, also text PostgreSQL cannot hold', async () => {
    const connectionString = postgres!.createDatabase();
    const client = new pg.Client({ connectionString });
    await client.connect();
    await client.query(
      'CREATE TABLE compaction_schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
    );
    for (const migration of migrations.filter((migration) => migration.version <= 2)) {
      for (const statement of migration.statements) await client.query(statement);
      await client.query('INSERT INTO compaction_schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
    }
    const records = [1, 2].map((round) => ({
      ...sampleCompactionRecord('a', round),
      archived: [
        { handle: 'again', label: 'bash output', text: `round ${round}: 数据库 \u0000 \ud800 naïve` },
      ],
    }));
    for (const { event, removedMessages, archived } of [...records, sampleArchivingRecord('b', 1)]) {
      await client.query(
        `INSERT INTO compaction_records
           (event_id, session_id, round, started_at, event, removed_messages, archived)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          event.id,
          event.sessionId,
          event.round,
          event.startedAt,
          JSON.stringify(event),
          JSON.stringify(removedMessages),
          JSON.stringify(archived),
        ],
      );
    }
    await client.end();
    expect(await migratePostgresStore(connectionString)).toEqual(
      migrations.slice(2).map((migration) => migration.version),
    );
    const store = await openPostgresCompactionStore({ connectionString });
    expect(await store.searchArchived({ text: '数据 NAÏVE' })).toEqual([
      expect.objectContaining({
        sessionId: 'a',
        handle: 'again',
        round: 2,
        snippet: expect.stringContaining('**数据**'),
      }),
    ]);
    expect((await store.searchArchived({ text: 'indented' })).map((hit) => hit.handle)).toEqual(['bash-1']);
    // The records read back exactly as written: the index holds its own copy of the text.
    expect(await store.list('a')).toEqual(records);
    await store.close();
  });

  it('runs one session lock holder at a time across stores, and commits its writes together', async () => {
    const first = newStore();
    const second = createPostgresCompactionStore({ connectionString: urls.get(first)! });
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holding = first.withSessionLock('s', async () => {
      order.push('first in');
      await first.append(sampleCompactionRecord('s', 1));
      await first.updateSessionMetadata('s', { step: 1 });
      await held;
      order.push('first out');
    });
    await waitUntil(() => order.length === 1);
    // Not visible before the commit, from another store or outside the lock.
    expect(await second.list('s')).toEqual([]);
    const waiting = second.withSessionLock('s', async () => {
      order.push('second in');
      return second.getSessionMetadata('s');
    });
    // Another session is not held up.
    await second.withSessionLock('other', async () => order.push('other'));
    release();
    await holding;
    expect(await waiting).toEqual({ step: 1 });
    expect(order).toEqual(['first in', 'other', 'first out', 'second in']);
    await Promise.all([first.close(), second.close()]);
  });

  it('writes nothing of an operation that throws', async () => {
    const store = newStore();
    const failure = new Error('refused');
    await expect(
      store.withSessionLock('s', async () => {
        await store.append(sampleCompactionRecord('s', 1));
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await store.list('s')).toEqual([]);
    await store.close();
  });

  it('gives up on a held lock after the lock timeout, with a lock-timeout error', async () => {
    const holder = newStore();
    const waiter = createPostgresCompactionStore({ connectionString: urls.get(holder)!, lockTimeoutMs: 200 });
    let release!: () => void;
    const holding = holder.withSessionLock('s', () => new Promise<void>((resolve) => (release = resolve)));
    await waitUntil(() => release !== undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    const error = await waiter.withSessionLock('s', async () => 'ran').catch((caught: unknown) => caught);
    expect(PostgresStoreError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'lock-timeout', message: expect.stringContaining('"s"') });
    expect(Date.now() - started).toBeLessThan(5_000);
    release();
    await holding;
    await Promise.all([holder.close(), waiter.close()]);
  });

  it('gets the lock of a process killed while holding it, without waiting for a timeout', async () => {
    const store = newStore() as PostgresCompactionStore;
    const connectionString = urls.get(store)!;
    await store.opened();
    // Another process takes the session's lock (as the store does) and is killed while holding it.
    const script = `
      const pg = require(${JSON.stringify(createRequire(import.meta.url).resolve('pg'))});
      const client = new pg.Client({ connectionString: process.argv[1] });
      client.connect().then(async () => {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [0x636f6d70, 's']);
        process.stdout.write('held\\n');
      });`;
    const child = spawn(process.execPath, ['-e', script, connectionString], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    const blocked = createPostgresCompactionStore({ connectionString, lockTimeoutMs: 300 });
    await expect(blocked.withSessionLock('s', async () => 'ran')).rejects.toMatchObject({
      reason: 'lock-timeout',
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
    const started = Date.now();
    expect(await store.withSessionLock('s', async () => 'ran')).toBe('ran');
    expect(Date.now() - started).toBeLessThan(2_000);
    await Promise.all([store.close(), blocked.close()]);
  });

  it('names an unreachable database without its password', async () => {
    const error = await openPostgresCompactionStore({
      connectionString: 'postgres://someone:secret-password@127.0.0.1:1/none',
      connectionTimeoutMs: 2_000,
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ reason: 'failed', code: 'store-postgres/failed' });
    expect((error as Error).message).toContain('postgres://someone:***@127.0.0.1:1/none');
    expect((error as Error).message).not.toContain('secret-password');
  });
});

describe('redactConnectionString', () => {
  it('hides passwords in URLs and key=value strings', () => {
    expect(redactConnectionString('postgres://user:pa55@db:5432/app?sslpassword=x')).toBe(
      'postgres://user:***@db:5432/app?sslpassword=***',
    );
    expect(redactConnectionString('host=db dbname=app user=me password=pa55')).toBe(
      'host=db dbname=app user=me',
    );
    expect(redactConnectionString('postgres://db/app')).toBe('postgres://db/app');
  });
});

async function waitUntil(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
