import { resolve } from 'node:path';
import {
  createStrategyRegistry,
  type StrategyConfig,
  type StrategyDefinition,
  type StrategyRegistry,
} from '@compaction/core';
import { findConfigFile } from './find-config.js';

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

/** Where the command runs and the config it reads, so strategies installed beside either are found. */
export interface RegistryLocation {
  /** The working folder. */
  directory: string;
  /** The `--config` path, relative to `directory`; without it, the nearest config file upward. */
  config?: string | undefined;
}

/**
 * A registry with every installed strategy package registered; any other name is loaded from
 * `@compaction/strategy-<name>` on demand: as the CLI's folder sees it, else from the config file's folder,
 * else from the working folder (a CLI installed globally cannot see an application's packages by itself). A
 * bundled package that fails to load is left out, so one broken install does not stop the others.
 */
export async function createInstalledStrategyRegistry(
  location?: RegistryLocation,
): Promise<StrategyRegistry> {
  const registry = createStrategyRegistry({
    loadPackage: importPackage,
    ...(location === undefined ? {} : { resolveFrom: resolveFolders(location) }),
  });
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

/** The config file (given or found upward) and the working folder, in that order. */
function resolveFolders({ directory, config }: RegistryLocation): string[] {
  const configPath = config === undefined ? findConfigFile(directory) : resolve(directory, config);
  return configPath === undefined ? [directory] : [configPath, directory];
}
