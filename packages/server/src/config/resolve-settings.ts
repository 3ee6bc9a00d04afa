import type { BudgetOptions, CompactionConfig, StrategyConfig, StrategyRegistry } from '@compaction/core';
import { CliError, usageError } from '../errors/cli-error.js';
import { apiKeyVariables, type ProviderSettings } from '../providers/create-provider.js';
import { offlineDefaults, type StrategyDefaults } from './installed-strategies.js';
import { loadConfig } from './load-config.js';
import { resolveProviderFlags } from './provider-flags.js';
import { strategyNeedingProvider } from './provider-needed.js';
import { parseTokenAmount, parseTokenCount } from './token-amount.js';

/** The flags every compacting command shares, as `parseArgs` returns them. */
export interface CompactionFlags {
  config?: string;
  strategy?: string;
  'context-window'?: string;
  trigger?: string;
  target?: string;
  provider?: string;
  model?: string;
  'base-url'?: string;
}

/** A config merged with the flags that override it. */
export interface CompactionSettings {
  /** The merged config: what `resolveCompactionConfig` builds the strategy from. */
  config: CompactionConfig & { strategy: StrategyConfig | StrategyConfig[] };
  /** The config file used, if any. */
  configPath?: string;
  /** The budget without `contextWindow` resolved (it may come from the provider's model). */
  budget: Partial<BudgetOptions>;
  /** Whether the target was set by a flag or the config (otherwise commands pick their own default). */
  targetGiven: boolean;
  provider?: ProviderSettings;
  /** The strategy names, in order, for reports. */
  strategyNames: string[];
  /** Whether neither a flag nor the config named a strategy (the command's default is used). */
  strategyDefaulted: boolean;
}

/** Parses `--trigger`: a fraction, tokens, or `off`/`false`/`0` to disable automatic compaction. */
export function parseTrigger(text: string): number | false {
  if (/^(off|false|0|none)$/i.test(text.trim())) return false;
  return parseTokenAmount(text, '--trigger');
}

/**
 * Loads the config and applies the flags over it. `defaults` are the strategies used when neither names any:
 * the offline default, or a command's own (the proxy's).
 */
export function resolveSettings(
  registry: StrategyRegistry,
  flags: CompactionFlags,
  directory: string,
  defaults: StrategyDefaults = offlineDefaults,
): CompactionSettings {
  const { config: fileConfig, path } = loadConfig(registry, {
    directory,
    ...(flags.config === undefined ? {} : { path: flags.config }),
  });
  const budget: Partial<BudgetOptions> = { ...fileConfig?.budget };
  if (flags['context-window'] !== undefined) {
    budget.contextWindow = parseTokenCount(flags['context-window'], '--context-window');
  }
  if (flags.trigger !== undefined) budget.trigger = parseTrigger(flags.trigger);
  if (flags.target !== undefined) budget.target = parseTokenAmount(flags.target, '--target');

  const provider = resolveProviderFlags(flags, directory, fileConfig);

  let strategy: StrategyConfig | StrategyConfig[];
  if (flags.strategy !== undefined) {
    const names = flags.strategy
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '');
    if (names.length === 0) throw usageError('--strategy needs at least one strategy name');
    strategy = names;
  } else {
    strategy = fileConfig?.strategy ?? defaults.strategy;
  }
  const strategyNames = (Array.isArray(strategy) ? strategy : [strategy]).map((entry) =>
    typeof entry === 'string' ? entry : entry.name,
  );
  const strategyDefaulted = flags.strategy === undefined && fileConfig?.strategy === undefined;
  const fallback =
    flags.strategy !== undefined
      ? undefined
      : (fileConfig?.fallback ?? (strategyDefaulted ? defaults.fallback : undefined));
  const needing = strategyNeedingProvider(registry, [strategy, fallback ?? []]);
  if (needing !== undefined && provider === undefined) {
    throw new CliError({
      reason: 'config',
      message:
        `the "${needing}" strategy needs a provider: pass --provider anthropic (with ${apiKeyVariables.anthropic} set) ` +
        `or --provider openai (with ${apiKeyVariables.openai} set), or add "provider": {"name": "anthropic"} to compaction.config.json`,
    });
  }

  const config: CompactionSettings['config'] = {
    strategy,
    ...(fallback === undefined ? {} : { fallback }),
    budget,
    ...(provider === undefined ? {} : { provider: provider as CompactionConfig['provider'] & object }),
    ...(fileConfig?.triggerPolicy === undefined ? {} : { triggerPolicy: fileConfig.triggerPolicy }),
    ...(fileConfig?.planTools === undefined ? {} : { planTools: fileConfig.planTools }),
  };
  return {
    config,
    ...(path === undefined ? {} : { configPath: path }),
    budget,
    targetGiven: budget.target !== undefined,
    ...(provider === undefined ? {} : { provider }),
    strategyNames,
    strategyDefaulted,
  };
}
