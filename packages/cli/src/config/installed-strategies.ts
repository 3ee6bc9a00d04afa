import {
  createStrategyRegistry,
  type StrategyConfig,
  type StrategyDefinition,
  type StrategyRegistry,
} from '@compaction/core';

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

/** The strategies a command runs when neither a flag nor the config names any, and their fallback. */
export interface StrategyDefaults {
  strategy: StrategyConfig[];
  fallback: StrategyConfig;
}

/** The offline default of `compact`, `simulate` and `serve`. */
export const offlineDefaults: StrategyDefaults = { strategy: defaultStrategy, fallback: defaultFallback };

/**
 * The proxy's default: old tool results shortened, then a summary that is the artifact trail alone
 * (`maxOutputTokens: 0` calls no model), after the task so the task stays in the provider's cache. The
 * evaluation's cheapest policy that needs no provider, less its cache-aware trigger: through the proxy the
 * trigger saved little, and a trigger policy makes the proxy read every request whole (docs/proxy.md).
 */
export const proxyDefaultStrategy: StrategyConfig[] = [
  'tool-result-truncation',
  {
    name: 'summarization',
    options: { maxOutputTokens: 0, recentShare: 0.05, placement: 'assistant-after-task' },
  },
];

/** The proxy's defaults, or the offline ones when the summarization package is not installed. */
export function proxyStrategyDefaults(registry: StrategyRegistry): StrategyDefaults {
  return registry.names().includes('summarization')
    ? { strategy: proxyDefaultStrategy, fallback: defaultFallback }
    : offlineDefaults;
}

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
