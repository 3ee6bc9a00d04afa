import { defineProvider, type OptionsSchema, providerSettingsSchema } from '@compaction/core';
import { createOpenAIProvider, type OpenAIProviderSettings } from './openai-provider.js';

/** The settings a config may give the `openai` provider: the JSON-serializable ones. */
export const openaiSettingsSchema: OptionsSchema = providerSettingsSchema({
  defaultModel: 'gpt-5.4',
  settings: {
    api: {
      enum: ['chat', 'responses'],
      default: 'chat',
      description: 'Which API summaries are generated with: Chat Completions or Responses.',
    },
    systemRole: { enum: ['system', 'developer'], description: 'Role of system messages.' },
  },
  apiKeyDescription: 'API key; default: the OPENAI_API_KEY environment variable.',
  baseURLDescription: 'API base URL; any OpenAI-compatible endpoint works.',
  clientSettings: { organization: { type: 'string' }, project: { type: 'string' } },
  longContextDescription: "Use a model's full window where input beyond a standard window is billed higher.",
});

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
