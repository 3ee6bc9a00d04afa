import {
  type CompactionConfig,
  type Compactor,
  type CompactorSettings,
  createCompactor,
  type Provider,
  type ResolvedCompactionConfig,
  resolveCompactionConfig,
  type StrategyRegistry,
} from '@compaction/core';
import { cliTriggerPolicies } from './trigger-policies.js';

/**
 * A Compactor running the strategies a config names. The given provider (from the flags or the server's
 * settings) serves both the strategies and the Compactor; without one, the config's own provider does.
 */
export async function createConfiguredCompactor(
  config: CompactionConfig,
  registry: StrategyRegistry,
  provider: Provider | undefined,
  settings: Omit<CompactorSettings, keyof ResolvedCompactionConfig>,
): Promise<Compactor> {
  const given = provider === undefined ? {} : { provider };
  const resolved = await resolveCompactionConfig(config, registry, {
    ...given,
    triggerPolicies: cliTriggerPolicies,
  });
  return createCompactor({ ...resolved, ...settings, ...given });
}
