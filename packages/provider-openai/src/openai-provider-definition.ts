import { defineProvider, type OptionsSchema } from '@compaction/core';
import { createOpenAIProvider, type OpenAIProviderSettings } from './openai-provider.js';

/** The settings a config may give the `openai` provider: the JSON-serializable ones. */
export const openaiSettingsSchema: OptionsSchema = {
  type: 'object',
  properties: {
    model: { type: 'string', minLength: 1, description: 'The default model.', default: 'gpt-5.4' },
    api: {
      enum: ['chat', 'responses'],
      default: 'chat',
      description: 'Which API summaries are generated with: Chat Completions or Responses.',
    },
    systemRole: { enum: ['system', 'developer'], description: 'Role of system messages.' },
    apiKey: { type: 'string', description: 'API key; default: the OPENAI_API_KEY environment variable.' },
    baseURL: { type: 'string', description: 'API base URL; any OpenAI-compatible endpoint works.' },
    organization: { type: 'string' },
    project: { type: 'string' },
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
      description: "Use a model's full window where input beyond a standard window is billed higher.",
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
 * The `openai` provider definition, default-exported by this package, so a config
 * `{ "provider": { "name": "openai", "model": "gpt-5.4" } }` resolves it by name.
 */
export const openaiProviderDefinition = defineProvider<OpenAIProviderSettings>({
  specificationVersion: 'v1',
  name: 'openai',
  description: 'OpenAI Chat Completions or Responses API through the openai SDK.',
  settingsSchema: openaiSettingsSchema,
  create: (settings) => createOpenAIProvider(settings),
});
