import { type CompactionConfig, createStrategyRegistry } from '@compaction/core';
import { usageError } from '../errors/cli-error.js';
import type { ProviderSettings } from '../providers/create-provider.js';
import { loadConfig } from './load-config.js';

/** The provider from the config's `provider` entry and the `--provider`, `--model`, `--base-url` flags. */
export function resolveProviderFlags(
  flags: { config?: string; provider?: string; model?: string; 'base-url'?: string },
  directory: string,
  loaded?: CompactionConfig,
): ProviderSettings | undefined {
  // Only the provider entry matters here, so strategies are not loaded to validate their options.
  const config =
    loaded ??
    loadConfig(createStrategyRegistry({ loadPackage: false }), {
      directory,
      ...(flags.config === undefined ? {} : { path: flags.config }),
    }).config;
  let provider: ProviderSettings | undefined =
    config?.provider === undefined ? undefined : { ...(config.provider as ProviderSettings) };
  if (flags.provider !== undefined) {
    provider = { ...(provider?.name === flags.provider ? provider : {}), name: flags.provider };
  }
  if (flags.model !== undefined || flags['base-url'] !== undefined) {
    if (provider === undefined) {
      throw usageError(
        '--model and --base-url need a provider: add --provider anthropic or --provider openai',
      );
    }
    if (flags.model !== undefined) provider.model = flags.model;
    if (flags['base-url'] !== undefined) provider.baseURL = flags['base-url'];
  }
  return provider;
}
