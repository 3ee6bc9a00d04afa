import {
  createProviderRegistry,
  createStrategyRegistry,
  defineStrategy,
  type Provider,
  type ProviderConfig,
  type ProviderRegistry,
  resolveCompactionConfig,
} from '@compaction/core';

/** What {@link resolveProviderConfig} resolved, and what it saw on the way. */
export interface ResolvedProviderConfig {
  /** The provider the config named. */
  provider: Provider | undefined;
  /** Package names the provider registry loaded (`@compaction/provider-<name>`). */
  loaded: string[];
  /** The provider each strategy the config named was built with. */
  strategyProviders: Array<Provider | undefined>;
  /** The provider registry, to resolve more configs with. */
  providers: ProviderRegistry;
}

/**
 * Resolves a compaction config that names `provider` through core's registries, the way a user's config is
 * resolved: the provider registry loads the adapter package by name (through `load`, which imports the
 * adapter's entry), and a recording strategy, which keeps everything, notes the provider it is given. For
 * testing that an adapter's default export is a working provider definition.
 */
export async function resolveProviderConfig(settings: {
  /** The config's `provider`: the adapter's name and its settings. */
  provider: ProviderConfig;
  /** Imports the adapter package (its default export is the provider definition). */
  load: () => Promise<unknown>;
}): Promise<ResolvedProviderConfig> {
  const loaded: string[] = [];
  const strategyProviders: Array<Provider | undefined> = [];
  const providers = createProviderRegistry({
    loadPackage: async (packageName) => {
      loaded.push(packageName);
      return settings.load();
    },
  });
  const recording = defineStrategy<Record<string, never>>({
    specificationVersion: 'v1',
    name: 'recording',
    description: 'Keeps everything; records its provider.',
    optionsSchema: { type: 'object', additionalProperties: false },
    create: (_options, context) => {
      strategyProviders.push(context.provider);
      return {
        specificationVersion: 'v1',
        name: 'recording',
        compact: async (input) => ({ messages: [...input.messages] }),
      };
    },
  });
  const resolved = await resolveCompactionConfig(
    { strategy: 'recording', provider: settings.provider },
    createStrategyRegistry({ definitions: [recording] }),
    { providers },
  );
  return { provider: resolved.provider, loaded, strategyProviders, providers };
}
