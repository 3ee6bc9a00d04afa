import { pipelineDefinition } from '../strategies/pipeline.js';
import { StrategyRegistry, type StrategyRegistrySettings } from './strategy-registry.js';

/** Creates a registry with the built-in `pipeline` strategy and the given definitions. */
export function createStrategyRegistry(settings: StrategyRegistrySettings = {}): StrategyRegistry {
  return new StrategyRegistry({
    ...settings,
    definitions: [pipelineDefinition as never, ...(settings.definitions ?? [])],
  });
}
