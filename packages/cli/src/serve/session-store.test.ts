import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../__fixtures__/run-binary.js';
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
});
