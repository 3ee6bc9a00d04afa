import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStoreRegistry } from '@compaction/core/stores';
import { afterAll, describe, expect, it } from 'vitest';
import sqliteStoreDefinition from './index.js';
import { SqliteCompactionStore } from './sqlite-compaction-store.js';

const directory = mkdtempSync(join(tmpdir(), 'compaction-sqlite-registry-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('the sqlite store by location', () => {
  const registry = createStoreRegistry({ loadPackage: false, definitions: [sqliteStoreDefinition] as never });

  it('opens a file path, usable once open', async () => {
    const path = join(directory, 'sessions.sqlite');
    const store = await registry.open(path, { busyTimeoutMs: 500 });
    expect(store).toBeInstanceOf(SqliteCompactionStore);
    expect((store as SqliteCompactionStore).path).toBe(path);
    await store.updateSessionMetadata('s', { a: 1, b: 2 });
    expect(await store.updateSessionMetadata('s', { a: 3 })).toEqual({ a: 3, b: 2 });
    await store.close();
  });

  it('reports a file that cannot be opened when it opens, and leaves nothing open', async () => {
    const path = join(directory, 'missing', 'sessions.sqlite');
    await expect(registry.open(path)).rejects.toMatchObject({ name: 'SqliteStoreError' });
  });
});
