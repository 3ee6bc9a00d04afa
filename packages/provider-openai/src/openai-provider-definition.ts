import type { OptionsSchema } from '@compaction/core';
import { defineSdkProvider } from '@compaction/provider-utils';
import { createOpenAIProvider, type OpenAIProviderSettings } from './openai-provider.js';

/**
 * The `openai` provider definition, default-exported by this package, so a config
 * `{ "provider": { "name": "openai", "model": "gpt-5.4" } }` resolves it by name.
 */
export const openaiProviderDefinition = defineSdkProvider<OpenAIProviderSettings>({
  name: 'openai',
  description: 'OpenAI Chat Completions or Responses API through the openai SDK.',
  settings: {
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
    longContextDescription:
      "Use a model's full window where input beyond a standard window is billed higher.",
  },
  create: createOpenAIProvider,
});

/** The settings a config may give the `openai` provider: the JSON-serializable ones. */
export const openaiSettingsSchema: OptionsSchema = openaiProviderDefinition.settingsSchema;
