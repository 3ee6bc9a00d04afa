import type { Provider, ProviderDefinition } from '@compaction/core';
import { type ProviderSettingsSchemaOptions, providerSettingsSchema } from './provider-settings-schema.js';

/** What {@link defineSdkProvider} needs: the definition's name, description and factory, and its settings. */
export interface SdkProviderOptions<Settings> {
  /** The name configs use, such as `anthropic`. */
  name: string;
  /** One sentence: what the adapter talks to. */
  description: string;
  /** What a config may give besides the settings every SDK client takes (see {@link providerSettingsSchema}). */
  settings: ProviderSettingsSchemaOptions;
  /** Builds the provider from validated settings. */
  create: (settings: Settings) => Provider | Promise<Provider>;
}

/**
 * The definition an adapter package over an SDK default-exports, so a config can name it: version 1 of the
 * spec, with the settings schema every such adapter shares (model, API key, base URL, long context...).
 */
export function defineSdkProvider<Settings>(
  options: SdkProviderOptions<Settings>,
): ProviderDefinition<Settings> {
  return {
    specificationVersion: 'v1',
    name: options.name,
    description: options.description,
    settingsSchema: providerSettingsSchema(options.settings),
    create: options.create,
  };
}
