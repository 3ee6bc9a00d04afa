import { createProviderRegistry, type Provider, type ProviderConfig } from '@compaction/core';
import { CliError } from '../errors/cli-error.js';

/** The provider the CLI was asked to use: by config entry or flags. */
export interface ProviderSettings {
  /** Adapter name: `anthropic`, `openai`, or any `@compaction/provider-<name>` installed. */
  name: string;
  model?: string;
  /** Base URL of the API (a proxy, a compatible server, a local test server). */
  baseURL?: string;
  /** Other settings from the config's `provider` entry, passed to the adapter as they are. */
  [setting: string]: unknown;
}

/** The environment variable holding each known provider's API key. */
export const apiKeyVariables: Readonly<Record<string, string>> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
};

/**
 * Builds a provider through core's provider registry, which loads `@compaction/provider-<name>` and validates
 * the settings. Fails first, with a line that says what to set, when a known provider's API key is missing.
 */
export async function createProvider(
  settings: ProviderSettings,
  environment: NodeJS.ProcessEnv = process.env,
): Promise<Provider> {
  const { name, ...rest } = settings;
  const variable = apiKeyVariables[name];
  if (variable !== undefined && rest.apiKey === undefined && !environment[variable]) {
    throw new CliError({
      reason: 'config',
      message: `the ${name} provider needs an API key: set ${variable}`,
    });
  }
  const apiKey = rest.apiKey ?? (variable === undefined ? undefined : environment[variable]);
  const config = { name, ...rest, ...(apiKey === undefined ? {} : { apiKey }) } as ProviderConfig;
  return createProviderRegistry({ loadPackage: importPackage }).resolve(config);
}

// Resolved from the CLI's own folder, where the adapters are installed.
const importPackage = (packageName: string): Promise<unknown> => import(packageName);
