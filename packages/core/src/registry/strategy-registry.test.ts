import { describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { PackageLoadError } from '../errors/package-load-error.js';
import { StrategyNotFoundError } from '../errors/strategy-not-found-error.js';
import { validateOptions } from '../options/options-schema.js';
import type { CompactionStrategy } from '../specs/compaction-strategy-v1.js';
import { compactionConfigSchema, resolveCompactionConfig } from './compaction-config.js';
import { defineStrategy } from './strategy-definition.js';
import { createStrategyRegistry } from './strategy-registry.js';

const identity = (name: string, options?: unknown): CompactionStrategy & { options?: unknown } => ({
  specificationVersion: 'v1',
  name,
  options,
  compact: async (input) => ({ messages: [...input.messages] }),
});

const keepDefinition = defineStrategy<{ keep: number }>({
  specificationVersion: 'v1',
  name: 'keep',
  description: 'Test strategy.',
  optionsSchema: {
    type: 'object',
    properties: { keep: { type: 'integer', minimum: 1, default: 3 } },
    additionalProperties: false,
  },
  create: (options) => identity('keep', options),
});

describe('StrategyRegistry', () => {
  it('resolves by name with validated options and defaults', async () => {
    const registry = createStrategyRegistry({ definitions: [keepDefinition], loadPackage: false });
    expect(registry.names()).toEqual(['keep', 'pipeline']);
    const strategy = (await registry.resolve('keep')) as ReturnType<typeof identity>;
    expect(strategy.options).toEqual({ keep: 3 });
    const configured = (await registry.resolve({ name: 'keep', options: { keep: 7 } })) as ReturnType<
      typeof identity
    >;
    expect(configured.options).toEqual({ keep: 7 });
    await expect(registry.resolve({ name: 'keep', options: { keep: 0 } })).rejects.toThrow(
      InvalidOptionsError,
    );
  });

  it('loads @compaction/strategy-<name> for a name that is not registered', async () => {
    const loaded: string[] = [];
    const registry = createStrategyRegistry({
      loadPackage: async (packageName) => {
        loaded.push(packageName);
        return { default: keepDefinition };
      },
    });
    await registry.resolve('keep');
    await registry.resolve('keep');
    expect(loaded).toEqual(['@compaction/strategy-keep']);
  });

  it('fails with the registered names and the package to install', async () => {
    const registry = createStrategyRegistry({ definitions: [keepDefinition] });
    const error = await registry.resolve('nonexistent').catch((caught: unknown) => caught);
    expect(StrategyNotFoundError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      `No strategy named "nonexistent". Registered: keep, pipeline. Install @compaction/strategy-nonexistent to use it. Looked from: @compaction/core's own folder, ${process.cwd()}.`,
    );
  });

  it('says "install it" only when the package itself is missing', async () => {
    const missing = Object.assign(
      new Error("Cannot find package '@compaction/strategy-keep' imported from here"),
      {
        code: 'ERR_MODULE_NOT_FOUND',
      },
    );
    const registry = createStrategyRegistry({
      loadPackage: async () => {
        throw missing;
      },
    });
    const error = await registry.resolve('keep').catch((caught: unknown) => caught);
    expect(StrategyNotFoundError.isInstance(error)).toBe(true);
    expect((error as Error).cause).toBe(missing);
  });

  it('reports a package that is installed but fails to load with the failure as its cause', async () => {
    const failures = [
      Object.assign(new Error("Cannot find package 'left-pad' imported from /strategy-keep/dist/index.js"), {
        code: 'ERR_MODULE_NOT_FOUND',
      }),
      new SyntaxError('Unexpected token'),
      new Error("Cannot find package '@compaction/strategy-keep' without a module-not-found code"),
    ];
    for (const failure of failures) {
      const registry = createStrategyRegistry({
        loadPackage: async () => {
          throw failure;
        },
      });
      const error = await registry.resolve('keep').catch((caught: unknown) => caught);
      expect(PackageLoadError.isInstance(error)).toBe(true);
      expect(StrategyNotFoundError.isInstance(error)).toBe(false);
      expect(error).toMatchObject({
        code: 'core/package-load-failed',
        packageName: '@compaction/strategy-keep',
      });
      expect((error as Error).cause).toBe(failure);
      expect((error as Error).message).toContain(failure.message);
    }
  });

  it('rejects a package whose default export is not a definition of that name', async () => {
    const registry = createStrategyRegistry({ loadPackage: async () => ({ default: keepDefinition }) });
    await expect(registry.resolve('other')).rejects.toThrow(/exports a strategy named "keep", not "other"/);
    await expect(registry.resolve('other')).rejects.toThrow(PackageLoadError);
    const broken = createStrategyRegistry({ loadPackage: async () => ({ default: { name: 'x' } }) });
    await expect(broken.resolve('x')).rejects.toThrow(InvalidOptionsError);
  });
});

describe('compaction configs', () => {
  const config = {
    $schema: './compaction.schema.json',
    strategy: [{ name: 'keep', options: { keep: 2 } }, 'keep'],
    fallback: 'keep',
    budget: { contextWindow: 32_000, trigger: 0.8, target: 0.5 },
  };

  it('round-trip through JSON unchanged and validate', async () => {
    const parsed = validateOptions(compactionConfigSchema(), JSON.parse(JSON.stringify(config)), 'config');
    expect(parsed).toEqual(config);
    const registry = createStrategyRegistry({ loadPackage: false });
    await expect(
      resolveCompactionConfig({ strategy: [], budget: { trigger: 'soon' } } as never, registry),
    ).rejects.toThrow(/strategy.*budget\.trigger/s);
  });

  it('resolve a list into a pipeline', async () => {
    const registry = createStrategyRegistry({ definitions: [keepDefinition], loadPackage: false });
    const { strategy, fallback } = await resolveCompactionConfig(config, registry);
    expect(strategy.name).toBe('pipeline');
    expect(fallback?.name).toBe('keep');
  });

  it('publish a JSON Schema that includes each registered strategy options', () => {
    const registry = createStrategyRegistry({ definitions: [keepDefinition], loadPackage: false });
    const text = JSON.stringify(compactionConfigSchema(registry));
    expect(text).toContain('"const":"keep"');
    expect(text).toContain('"minimum":1');
  });
});
