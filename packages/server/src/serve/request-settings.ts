import type { StrategyRegistry } from '@compaction/core';
import { mergeConfig } from '../config/merge-config.js';
import type { CompactionSettings } from '../config/resolve-settings.js';
import { checkRequestConfig, type RequestPolicy } from './request-policy.js';

/**
 * The operator's settings with a request's `config` laid over it, once the policy allows the config (403 for
 * what it refuses). The provider entry is rebuilt from the operator's own: a request contributes at most a
 * model id.
 */
export function requestSettings(
  config: unknown,
  policy: RequestPolicy,
  operatorSettings: CompactionSettings,
  registry: StrategyRegistry,
): CompactionSettings {
  const checked = checkRequestConfig(config, policy);
  if (checked === undefined) return operatorSettings;
  const { config: override, model } = checked;
  const provider =
    model === undefined || operatorSettings.provider === undefined
      ? {}
      : { provider: { ...operatorSettings.provider, model } };
  return mergeConfig(operatorSettings, { ...override, ...provider }, registry);
}
