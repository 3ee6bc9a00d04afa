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
  /** How to load `@compaction/strategy-<name>`; `false` never loads packages (for closed bundles). */
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
 * Creates a strategy registry with `pipeline` and the given definitions. Other names load the default export
 * of `@compaction/strategy-<name>`, or fail with {@link StrategyNotFoundError} or `PackageLoadError`.
 */
export function createStrategyRegistry(settings: StrategyRegistrySettings = {}): StrategyRegistry {
  const definitions = [pipelineDefinition, ...(settings.definitions ?? [])];
  return new DefaultStrategyRegistry(
    {
      label: 'strategy',
      schema: 'optionsSchema',
      notFound: (context) => new StrategyNotFoundError(context),
    },
    { ...settings, definitions },
  );
}
