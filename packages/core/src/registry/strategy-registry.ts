import { StrategyNotFoundError } from '../errors/strategy-not-found-error.js';
import type { CompactionStrategy } from '../specs/compaction-strategy-v1.js';
import type { Provider } from '../specs/provider-v1.js';
import type { StrategyConfig } from '../specs/strategy-config.js';
import type { StrategyDefinition, StrategyRegistry } from '../specs/strategy-registry-v1.js';
import { pipelineDefinition } from '../strategies/pipeline.js';
import { DefinitionRegistry, type PackageLoader } from './definition-registry.js';

/** Settings of {@link createStrategyRegistry}. */
export interface StrategyRegistrySettings {
  /** Definitions to register up front (the `pipeline` strategy is always registered). */
  definitions?: readonly StrategyDefinition<never>[];
  /**
   * How to load `@compaction/strategy-<name>` for a name that is not registered. Defaults to dynamic
   * `import()`; pass `false` to never load packages (for bundles that must be closed).
   */
  loadPackage?: PackageLoader | false;
}

class DefaultStrategyRegistry
  extends DefinitionRegistry<StrategyDefinition<never>>
  implements StrategyRegistry
{
  async resolve(config: StrategyConfig, context: { provider?: Provider } = {}): Promise<CompactionStrategy> {
    const { name, options } = typeof config === 'string' ? { name: config, options: undefined } : config;
    const [definition, validated] = await this.validated(name, options);
    return definition.create(validated, { registry: this, ...context });
  }
}

/**
 * Creates a strategy registry with the built-in `pipeline` strategy and the given definitions. A name that is
 * not registered is loaded from the package `@compaction/strategy-<name>` (its default export) when
 * installed; otherwise resolution fails with {@link StrategyNotFoundError}, which lists the registered names
 * and the package, or, when the package is installed but fails to load, with `PackageLoadError`.
 */
export function createStrategyRegistry(settings: StrategyRegistrySettings = {}): StrategyRegistry {
  const definitions = [pipelineDefinition, ...(settings.definitions ?? [])];
  return new DefaultStrategyRegistry(
    {
      label: 'strategy',
      schema: 'optionsSchema',
      notFound: ({ name, ...context }) => new StrategyNotFoundError({ strategyName: name, ...context }),
    },
    { ...settings, definitions },
  );
}
