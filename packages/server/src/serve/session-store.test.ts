import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../__fixtures__/temporary-directory.js';
import { describeStoreLocation, openSessionStore, storeLocationOf } from './session-store.js';

describe('the session store of compaction serve', () => {
  it('is .compaction/sessions.sqlite in the working folder by default, a file with --store, or memory', () => {
    const directory = '/srv/agents';
    const defaulted = storeLocationOf(undefined, directory);
    expect(defaulted).toEqual({
      kind: 'sqlite',
      path: '/srv/agents/.compaction/sessions.sqlite',
      defaulted: true,
    });
    expect(describeStoreLocation(defaulted, directory)).toBe('sessions in .compaction/sessions.sqlite');
    const elsewhere = storeLocationOf('/var/lib/compaction/sessions.db', directory);
    expect(describeStoreLocation(elsewhere, directory)).toBe('sessions in /var/lib/compaction/sessions.db');
    expect(storeLocationOf('memory', directory)).toEqual({ kind: 'memory' });
    expect(describeStoreLocation({ kind: 'memory' }, directory)).toBe('sessions in memory only');
  });

  it('creates the default folder with a .gitignore, and opens a SQLite store in it', async () => {
    const directory = temporaryDirectory();
    const store = await openSessionStore(storeLocationOf(undefined, directory));
    await store!.updateSessionMetadata('s', { serve: { version: 1 } });
    await store!.close();
    expect(readFileSync(join(directory, '.compaction', '.gitignore'), 'utf8')).toBe(
      '# Sessions of compaction serve\n*\n',
    );
    expect(existsSync(join(directory, '.compaction', 'sessions.sqlite'))).toBe(true);
    expect(await openSessionStore({ kind: 'memory' })).toBeUndefined();
  });

  it('refuses a file in a folder that does not exist, naming it', async () => {
    const directory = temporaryDirectory();
    const location = storeLocationOf('missing/sessions.sqlite', directory);
    await expect(openSessionStore(location)).rejects.toThrow(
      `cannot open the session store ${join(directory, 'missing', 'sessions.sqlite')}: the folder ${join(directory, 'missing')} does not exist`,
    );
  });

  it('reads a PostgreSQL URL, another URL or a package name as the store registry does', () => {
    const directory = '/srv/agents';
    expect(storeLocationOf('postgresql://db/compaction', directory)).toEqual({
      kind: 'postgres',
      connectionString: 'postgresql://db/compaction',
    });
    expect(storeLocationOf('@acme/compaction-store', directory)).toEqual({
      kind: 'package',
      location: '@acme/compaction-store',
      directory,
    });
    const redis = storeLocationOf('redis://user:secret@cache:6379', directory);
    expect(redis).toEqual({ kind: 'package', location: 'redis://user:secret@cache:6379', directory });
    expect(describeStoreLocation(redis, directory)).not.toContain('secret');
    expect(storeLocationOf('./sessions', directory)).toEqual({
      kind: 'sqlite',
      path: '/srv/agents/sessions',
      defaulted: false,
    });
  });

  it('opens a third-party store package installed in the working folder, and names one that is not', async () => {
    const directory = temporaryDirectory();
    const folder = join(directory, 'node_modules', 'acme-store');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'package.json'),
      JSON.stringify({ name: 'acme-store', type: 'module', main: 'index.js' }),
    );
    writeFileSync(
      join(folder, 'index.js'),
      `export default {
  specificationVersion: 'v1',
  name: 'acme',
  description: 'Keeps the settings it was given.',
  open: (location, settings) => ({ location, settings, close: async () => {} }),
};
`,
    );
    const store = await openSessionStore(storeLocationOf('acme-store', directory), { poolSize: 3 });
    expect(store).toMatchObject({ location: 'acme-store', settings: { poolSize: 3 } });
    await expect(openSessionStore(storeLocationOf('sessions', directory))).rejects.toThrow(
      /No store named "sessions"\..*Looked from: .*\(for a file of that name, write --store \.\/sessions\)/,
    );
  });
});
