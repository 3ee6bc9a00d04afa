import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PackageLoadError } from '../errors/package-load-error.js';
import { StoreNotFoundError } from '../errors/store-not-found-error.js';
import type { CompactionStore } from './compaction-store.js';
import { InMemoryCompactionStore } from './in-memory-compaction-store.js';
import { defineStore, type StoreDefinition } from './store-definition.js';
import { createStoreRegistry, storeLocationKind } from './store-registry.js';

/** A store definition that records what it opened, with a store whose `opened()` may fail. */
function recordingDefinition(name: string, schemes: string[] = [], failure?: Error) {
  const opened: Array<{ location: string; settings: object; closed: boolean }> = [];
  const definition = defineStore({
    specificationVersion: 'v1',
    name,
    description: 'Records what it opens.',
    schemes,
    open(location, settings) {
      const entry = { location, settings, closed: false };
      opened.push(entry);
      const store: CompactionStore = new InMemoryCompactionStore();
      return Object.assign(store, {
        opened: async () => {
          if (failure !== undefined) throw failure;
        },
        close: async () => {
          entry.closed = true;
        },
      });
    },
  });
  return { definition, opened };
}

describe('storeLocationKind', () => {
  it('reads memory, URLs by scheme, package names and file paths', () => {
    expect(storeLocationKind('memory')).toEqual({ kind: 'memory' });
    expect(storeLocationKind('postgres://u:p@host/db')).toEqual({ kind: 'url', scheme: 'postgres' });
    expect(storeLocationKind('PostgreSQL://host/db')).toEqual({ kind: 'url', scheme: 'postgresql' });
    expect(storeLocationKind('@acme/compaction-store')).toEqual({
      kind: 'package',
      packageName: '@acme/compaction-store',
    });
    expect(storeLocationKind('acme-store')).toEqual({ kind: 'package', packageName: 'acme-store' });
    for (const path of [
      'archive.sqlite',
      './sessions',
      '/var/lib/sessions.db',
      'C:/data/s.db',
      'C:\\data\\s.db',
    ]) {
      expect(storeLocationKind(path), path).toEqual({ kind: 'path' });
    }
  });
});

describe('createStoreRegistry', () => {
  it('opens memory, a file path with the sqlite store, and postgres:// and postgresql:// with the postgres store', async () => {
    const sqlite = recordingDefinition('sqlite');
    const postgres = recordingDefinition('postgres', ['postgres', 'postgresql']);
    const registry = createStoreRegistry({
      loadPackage: false,
      definitions: [sqlite.definition, postgres.definition] as StoreDefinition<never>[],
    });
    expect(registry.names()).toEqual(['memory', 'postgres', 'sqlite']);
    expect(await registry.open('memory')).toBeInstanceOf(InMemoryCompactionStore);
    await registry.open('/tmp/sessions.sqlite', { busyTimeoutMs: 10 });
    await registry.open('postgres://host/a', { poolSize: 2 });
    await registry.open('postgresql://host/b');
    expect(sqlite.opened).toEqual([
      { location: '/tmp/sessions.sqlite', settings: { busyTimeoutMs: 10 }, closed: false },
    ]);
    expect(postgres.opened.map((entry) => [entry.location, entry.settings])).toEqual([
      ['postgres://host/a', { poolSize: 2 }],
      ['postgresql://host/b', {}],
    ]);
  });

  it('waits for the store to be usable, and closes it when it is not', async () => {
    const broken = recordingDefinition('sqlite', [], new Error('the folder does not exist'));
    const registry = createStoreRegistry({ loadPackage: false, definitions: [broken.definition] as never });
    await expect(registry.open('missing/sessions.sqlite')).rejects.toThrow('the folder does not exist');
    expect(broken.opened[0]?.closed).toBe(true);
  });

  it('loads the package of a scheme, a path or a name, and says where it looked for a missing one', async () => {
    const postgres = recordingDefinition('postgres', ['postgres', 'postgresql']);
    const sqlite = recordingDefinition('sqlite');
    const acme = recordingDefinition('acme');
    const modules: Record<string, unknown> = {
      '@compaction/store-postgres': { default: postgres.definition },
      '@compaction/store-sqlite': { default: sqlite.definition },
      '@acme/store': { default: acme.definition },
    };
    const requested: string[] = [];
    const registry = createStoreRegistry({
      resolveFrom: [],
      loadPackage: async (packageName) => {
        requested.push(packageName);
        if (packageName in modules) return modules[packageName];
        throw Object.assign(new Error(`Cannot find package '${packageName}'`), {
          code: 'ERR_MODULE_NOT_FOUND',
        });
      },
    });
    await registry.open('postgresql://host/db');
    await registry.open('postgres://host/db');
    await registry.open('sessions.sqlite');
    await registry.open('@acme/store', { region: 'eu' });
    // Each package is loaded once; the postgres store then opens both schemes.
    expect(requested).toEqual(['@compaction/store-postgres', '@compaction/store-sqlite', '@acme/store']);
    expect(acme.opened).toEqual([{ location: '@acme/store', settings: { region: 'eu' }, closed: false }]);
    const missing = await registry.open('redis://host').catch((error: unknown) => error);
    expect(StoreNotFoundError.isInstance(missing)).toBe(true);
    expect((missing as Error).message).toContain('Install @compaction/store-redis to use it.');
    expect((missing as Error).message).toContain('Looked from: the given loadPackage');
  });

  it('refuses a package whose store does not open the locations it was loaded for', async () => {
    const wrong = recordingDefinition('other');
    const registry = createStoreRegistry({ loadPackage: async () => ({ default: wrong.definition }) });
    await expect(registry.open('mysql://host/db')).rejects.toThrow(PackageLoadError);
    await expect(registry.open('sessions.sqlite')).rejects.toThrow('does not open sqlite locations');
  });
});

// A third-party store package in an application folder that core's own `import()` cannot see.
describe('a third-party store package by name', () => {
  let application: string;
  beforeAll(() => {
    application = mkdtempSync(join(tmpdir(), 'compaction-store-registry-'));
    const folder = join(application, 'node_modules', '@acme', 'compaction-store');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'package.json'),
      JSON.stringify({ name: '@acme/compaction-store', type: 'module', exports: { '.': './index.js' } }),
    );
    // Without core (the application's copy would be another one): a plain object store.
    writeFileSync(
      join(folder, 'index.js'),
      `const sessions = new Map();
export default {
  specificationVersion: 'v1',
  name: 'acme',
  description: 'A store of the application.',
  open: (location, settings) => ({
    location,
    settings,
    append: async () => {},
    list: async () => [],
    sessions: async () => [...sessions.keys()],
    getSessionMetadata: async (id) => sessions.get(id),
    updateSessionMetadata: async (id, metadata) => { sessions.set(id, metadata); return metadata; },
    opened: async () => {},
    close: async () => {},
  }),
};
`,
    );
  });
  afterAll(() => rmSync(application, { recursive: true, force: true }));

  it('is opened from the application folder', async () => {
    const registry = createStoreRegistry({ resolveFrom: application });
    const store = (await registry.open('@acme/compaction-store', { region: 'eu' })) as CompactionStore & {
      location: string;
      settings: object;
    };
    expect(store.location).toBe('@acme/compaction-store');
    expect(store.settings).toEqual({ region: 'eu' });
    await store.updateSessionMetadata('s', { a: 1 });
    expect(await store.sessions()).toEqual(['s']);
  });

  it('is not found where it is not installed, with where it was looked for', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'compaction-store-registry-empty-'));
    try {
      const registry = createStoreRegistry({ resolveFrom: elsewhere });
      const error = await registry.open('@acme/compaction-store').catch((caught: unknown) => caught);
      expect(StoreNotFoundError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(
        /^No store named "@acme\/compaction-store"\. Registered: memory\./,
      );
      expect((error as Error).message).toContain(`Looked from: @compaction/core's own folder, ${elsewhere}`);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
