import type { CompactionConfig, StrategyRegistry } from '@compaction/core';
import { CliError } from '../errors/cli-error.js';
import type { ProviderSettings } from '../providers/create-provider.js';
import { strategyNeedingProvider } from './provider-needed.js';
import type { CompactionSettings } from './resolve-settings.js';
import { validateConfig } from './validate-config.js';

/**
 * Settings with a partial config laid over them (a server request's `config`): its strategy replaces the
 * strategy, its budget fields replace budget fields. Validated against the registry's schema.
 */
export function mergeConfig(
  base: CompactionSettings,
  override: unknown,
  registry: StrategyRegistry,
): CompactionSettings {
  if (override === undefined || override === null) return base;
  const candidate = {
    strategy: base.config.strategy,
    ...(typeof override === 'object' ? override : {}),
  } as CompactionConfig;
  validateConfig(typeof override === 'object' ? candidate : override, registry);
  const budget = { ...base.budget, ...candidate.budget };
  const provider = (candidate.provider as ProviderSettings | undefined) ?? base.provider;
  const strategyChanged = (override as CompactionConfig).strategy !== undefined;
  const fallback = strategyChanged ? candidate.fallback : (candidate.fallback ?? base.config.fallback);
  const planTools = candidate.planTools ?? base.config.planTools;
  const config: CompactionSettings['config'] = {
    strategy: candidate.strategy,
    ...(fallback === undefined ? {} : { fallback }),
    budget,
    ...(provider === undefined ? {} : { provider: provider as CompactionConfig['provider'] & object }),
    ...(planTools === undefined ? {} : { planTools }),
  };
  const needing = strategyNeedingProvider(registry, [candidate.strategy, fallback ?? []]);
  if (needing !== undefined && provider === undefined) {
    throw new CliError({
      reason: 'config',
      message: `the "${needing}" strategy needs a provider: add "provider": {"name": "anthropic"} to the config`,
    });
  }
  return {
    ...base,
    config,
    budget,
    targetGiven: budget.target !== undefined,
    ...(provider === undefined ? {} : { provider }),
    strategyNames: (Array.isArray(candidate.strategy) ? candidate.strategy : [candidate.strategy]).map(
      (entry) => (typeof entry === 'string' ? entry : entry.name),
    ),
  };
}
