import { StrategyNotFoundError } from '../errors/strategy-not-found-error.js';
import type { CompactionStrategy } from '../specs/compaction-strategy-v1.js';
import type { Provider } from '../specs/provider-v1.js';
import type { StrategyConfig } from '../specs/strategy-config.js';
import type { StrategyDefinition, StrategyRegistry } from '../specs/strategy-registry-v1.js';
import { pipelineDefinition } from '../strategies/pipeline.js';
import { DefinitionRegistry, type PackageLoader } from './definition-registry.js';
import type { ResolveFrom } from './import-from-folders.js';
import { strategyNeedsProvider } from './strategy-needs-provider.js';

/** Settings of {@link createStrategyRegistry}. */
export interface StrategyRegistrySettings {
  /** Definitions to register up front (the `pipeline` strategy is always registered). */
  definitions?: readonly StrategyDefinition<never>[];
  /** How to load `@compaction/strategy-<name>`; `false` never loads packages (for closed bundles). */
  loadPackage?: PackageLoader | false;
  /**
   * Where to look for a package that `loadPackage` cannot see (core in a pnpm-strict `node_modules`, a CLI
   * installed globally): folders, or files such as the config file, resolved as the application would. On Node
   * only; the working folder when not given.
   */
  resolveFrom?: ResolveFrom | readonly ResolveFrom[];
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
  needsProvider(config: unknown): boolean {
    return strategyNeedsProvider(this, config);
  }
}

/**
 * Creates a strategy registry with `pipeline` and the given definitions. Other names load the default export
 * of `@compaction/strategy-<name>` (as core sees it, else from `resolveFrom`), or fail with
 * {@link StrategyNotFoundError}, which says where it looked, or `PackageLoadError`.
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
