import type { OptionsSchema } from '@compaction/core';
import { defineSdkProvider } from '@compaction/provider-utils';
import { type AnthropicProviderSettings, createAnthropicProvider } from './anthropic-provider.js';

/**
 * The `anthropic` provider definition, default-exported by this package, so a config
 * `{ "provider": { "name": "anthropic", "model": "claude-opus-5-5" } }` resolves it by name.
 */
export const anthropicProviderDefinition = defineSdkProvider<AnthropicProviderSettings>({
  name: 'anthropic',
  description: 'Anthropic Messages API through @anthropic-ai/sdk.',
  settings: {
    defaultModel: 'claude-sonnet-5-5',
    apiKeyDescription: 'API key; default: the ANTHROPIC_API_KEY environment variable.',
    baseURLDescription: 'API base URL; default: the SDK default.',
    longContextDescription:
      'Send the context-1m beta flag and use 1M-token windows where a model offers them.',
  },
  create: createAnthropicProvider,
});

/** The settings a config may give the `anthropic` provider: the JSON-serializable ones. */
export const anthropicSettingsSchema: OptionsSchema = anthropicProviderDefinition.settingsSchema;
