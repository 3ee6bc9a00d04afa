import { defineProvider, type OptionsSchema } from '@compaction/core';
import { type AnthropicProviderSettings, createAnthropicProvider } from './anthropic-provider.js';

/** The settings a config may give the `anthropic` provider: the JSON-serializable ones. */
export const anthropicSettingsSchema: OptionsSchema = {
  type: 'object',
  properties: {
    model: { type: 'string', minLength: 1, description: 'The default model.', default: 'claude-sonnet-5-5' },
    apiKey: { type: 'string', description: 'API key; default: the ANTHROPIC_API_KEY environment variable.' },
    baseURL: { type: 'string', description: 'API base URL; default: the SDK default.' },
    headers: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Headers sent with every request.',
    },
    maxRetries: {
      type: 'integer',
      minimum: 0,
      description: 'Retries of failed requests (default: the SDK, 2).',
    },
    timeout: { type: 'number', exclusiveMinimum: 0, description: 'Request timeout in milliseconds.' },
    longContext: {
      type: 'boolean',
      default: false,
      description: 'Send the context-1m beta flag and use 1M-token windows where a model offers them.',
    },
    maxOutputTokens: {
      type: 'integer',
      exclusiveMinimum: 0,
      description: 'Default output limit of summaries.',
    },
    modelLimits: {
      type: 'object',
      description: 'Limits by model id that replace or complete the built-in table.',
      additionalProperties: {
        type: 'object',
        properties: {
          contextWindow: { type: 'integer', exclusiveMinimum: 0 },
          maxOutputTokens: { type: 'integer', exclusiveMinimum: 0 },
        },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
};

/**
 * The `anthropic` provider definition, default-exported by this package, so a config
 * `{ "provider": { "name": "anthropic", "model": "claude-opus-5-5" } }` resolves it by name.
 */
export const anthropicProviderDefinition = defineProvider<AnthropicProviderSettings>({
  specificationVersion: 'v1',
  name: 'anthropic',
  description: 'Anthropic Messages API through @anthropic-ai/sdk.',
  settingsSchema: anthropicSettingsSchema,
  create: (settings) => createAnthropicProvider(settings),
});
