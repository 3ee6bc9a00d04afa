import { createStrategyRegistry, type StrategyDefinition, type StrategyRegistry } from '@compaction/core';

/** The strategy packages the CLI ships with, registered up front so the schema and help list them. */
export const bundledStrategyNames = [
  'tool-result-truncation',
  'sliding-window',
  'pruning',
  'summarization',
] as const;

/** The offline default: shorten old tool results, then keep the newest turns that fit. */
export const defaultStrategy = ['tool-result-truncation', 'sliding-window'];

/**
 * The default's fallback: the sliding window alone, from the original history. It rescues a history so far
 * over the limit that a stage of the pipeline gives up before the next stage could run.
 */
export const defaultFallback = 'sliding-window';

// Resolved from the CLI's own folder, so packages installed next to the CLI are found (core's own
// `import()` would resolve from core's folder instead).
const importPackage = (packageName: string): Promise<unknown> => import(packageName);

/**
 * A registry with every installed strategy package registered; any other name is loaded from
 * `@compaction/strategy-<name>` on demand. A bundled package that fails to load is left out, so one broken
 * install does not stop the others.
 */
export async function createCliRegistry(): Promise<StrategyRegistry> {
  const registry = createStrategyRegistry({ loadPackage: importPackage });
  const loaded = await Promise.all(
    bundledStrategyNames.map(async (name) => {
      try {
        const module = (await importPackage(`@compaction/strategy-${name}`)) as { default?: unknown };
        return module.default as StrategyDefinition<never> | undefined;
      } catch {
        return undefined;
      }
    }),
  );
  for (const definition of loaded) {
    if (definition !== undefined && definition.specificationVersion === 'v1') registry.register(definition);
  }
  return registry;
}
