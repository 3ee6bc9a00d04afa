import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PackageLoadError } from '../errors/package-load-error.js';
import { ProviderNotFoundError } from '../errors/provider-not-found-error.js';
import { StrategyNotFoundError } from '../errors/strategy-not-found-error.js';
import { createProviderRegistry } from './provider-registry.js';
import { createStrategyRegistry } from './strategy-registry.js';

// An application folder that core's own `import()` cannot see, as with a pnpm-strict install or a CLI
// installed globally: its packages are found only by resolving from the application.
let application: string;

/** Writes `node_modules/<name>` in the application with the given manifest fields and files. */
function writePackage(name: string, manifest: object, files: Record<string, string>): void {
  const folder = join(application, 'node_modules', name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name, type: 'module', ...manifest }));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(folder, file, '..'), { recursive: true });
    writeFileSync(join(folder, file), text);
  }
}

/** A strategy definition's module text, without importing core (which the application does not have). */
const definitionModule = (name: string) => `export default {
  specificationVersion: 'v1',
  name: '${name}',
  description: 'Keeps everything.',
  optionsSchema: { type: 'object', properties: {}, additionalProperties: false },
  create: () => ({ specificationVersion: 'v1', name: '${name}', compact: async (input) => ({ messages: [...input.messages] }) }),
};
`;

beforeAll(() => {
  application = mkdtempSync(join(tmpdir(), 'compaction-registry-'));
  mkdirSync(join(application, 'config', 'nested'), { recursive: true });
  writeFileSync(join(application, 'config', 'compaction.config.json'), '{"strategy":"keep-all"}');
  // The shapes an application's packages take: an `exports` map with import-only conditions, nested
  // conditions, a bare string, and `main` alone.
  writePackage(
    '@compaction/strategy-keep-all',
    { exports: { '.': { types: './index.d.ts', import: './dist/index.js' } } },
    { 'dist/index.js': definitionModule('keep-all') },
  );
  writePackage(
    '@compaction/strategy-nested',
    { exports: { require: './never.cjs', node: { import: './esm.js' } } },
    { 'esm.js': definitionModule('nested') },
  );
  writePackage(
    '@compaction/strategy-string',
    { exports: './entry.js' },
    { 'entry.js': definitionModule('string') },
  );
  writePackage(
    '@compaction/strategy-main',
    { main: 'lib/main.js' },
    { 'lib/main.js': definitionModule('main') },
  );
  writePackage(
    '@compaction/strategy-broken',
    { exports: './index.js' },
    { 'index.js': "throw new Error('broken on purpose');" },
  );
  writePackage(
    '@compaction/provider-local',
    { exports: './index.js' },
    {
      'index.js': `export default { specificationVersion: 'v1', name: 'local', settingsSchema: { type: 'object' },
        create: () => ({ specificationVersion: 'v1', name: 'local' }) };`,
    },
  );
});

afterAll(() => {
  vi.restoreAllMocks();
  rmSync(application, { recursive: true, force: true });
});

describe('loading a package by name from where the application installed it', () => {
  it('finds a package core cannot see from the folders given, whatever the shape of its entry', async () => {
    const registry = createStrategyRegistry({ resolveFrom: application });
    for (const name of ['keep-all', 'nested', 'string', 'main']) {
      const strategy = await registry.resolve(name);
      expect(strategy.name).toBe(name);
    }
    expect(registry.names()).toEqual(['keep-all', 'main', 'nested', 'pipeline', 'string']);
  });

  it("walks up from a config file's location, given as a path or a file URL", async () => {
    const configFile = join(application, 'config', 'compaction.config.json');
    for (const resolveFrom of [
      configFile,
      pathToFileURL(configFile),
      join(application, 'config', 'nested'),
    ]) {
      const strategy = await createStrategyRegistry({ resolveFrom: [resolveFrom] }).resolve('keep-all');
      expect(strategy.name).toBe('keep-all');
    }
  });

  it('resolves from the working folder by default', async () => {
    const workingFolder = vi.spyOn(process, 'cwd').mockReturnValue(join(application, 'config'));
    try {
      const strategy = await createStrategyRegistry().resolve('keep-all');
      expect(strategy.name).toBe('keep-all');
      const provider = await createProviderRegistry().resolve({ name: 'local' });
      expect(provider.name).toBe('local');
    } finally {
      workingFolder.mockRestore();
    }
  });

  it('also after a loadPackage of its own that cannot see the package (a CLI installed globally)', async () => {
    const cannotSee = async (packageName: string) => {
      throw Object.assign(new Error(`Cannot find package '${packageName}' imported from /cli`), {
        code: 'ERR_MODULE_NOT_FOUND',
      });
    };
    const registry = createStrategyRegistry({ loadPackage: cannotSee, resolveFrom: application });
    expect((await registry.resolve('keep-all')).name).toBe('keep-all');
  });

  it('says where it looked when the package is nowhere', async () => {
    const error = await createStrategyRegistry({ resolveFrom: application })
      .resolve('absent')
      .catch((caught: unknown) => caught);
    expect(StrategyNotFoundError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      `No strategy named "absent". Registered: pipeline. Install @compaction/strategy-absent to use it. Looked from: @compaction/core's own folder, ${application}.`,
    );
    const providerError = await createProviderRegistry({ resolveFrom: application })
      .resolve({ name: 'absent' })
      .catch((caught: unknown) => caught);
    expect(ProviderNotFoundError.isInstance(providerError)).toBe(true);
    expect((providerError as Error).message).toContain(
      `Looked from: @compaction/core's own folder, ${application}.`,
    );
  });

  it('reports a package that is found but fails to load as such, not as missing', async () => {
    const error = await createStrategyRegistry({ resolveFrom: application })
      .resolve('broken')
      .catch((caught: unknown) => caught);
    expect(PackageLoadError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('broken on purpose');
  });

  it('never looks in folders when loading packages is off', async () => {
    const error = await createStrategyRegistry({ loadPackage: false, resolveFrom: application })
      .resolve('keep-all')
      .catch((caught: unknown) => caught);
    expect(StrategyNotFoundError.isInstance(error)).toBe(true);
    expect((error as Error).message).not.toContain('Looked from');
  });
});
