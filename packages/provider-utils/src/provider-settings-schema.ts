import type { OptionsSchema } from '@compaction/core';

/** What differs between the settings schemas of two SDK-backed providers; see {@link providerSettingsSchema}. */
export interface ProviderSettingsSchemaOptions {
  /** The default of `model`. */
  defaultModel: string;
  /** Description of `apiKey` (where the SDK reads it from by default). */
  apiKeyDescription: string;
  /** Description of `baseURL`. */
  baseURLDescription: string;
  /** Description of `longContext` (what it switches on for this provider). */
  longContextDescription: string;
  /** Provider-specific settings, placed after `model`. */
  settings?: Readonly<Record<string, OptionsSchema>>;
  /** Provider-specific client settings, placed after `baseURL`. */
  clientSettings?: Readonly<Record<string, OptionsSchema>>;
}

/**
 * The JSON Schema of the settings a config may give an SDK-backed provider: `model`, the client settings
 * (`apiKey`, `baseURL`, `headers`, `maxRetries`, `timeout`), `longContext`, `maxOutputTokens` and
 * `modelLimits`, plus the provider's own. No other property is allowed, so a typo fails at validation.
 */
export function providerSettingsSchema(options: ProviderSettingsSchemaOptions): OptionsSchema {
  return {
    type: 'object',
    properties: {
      model: {
        type: 'string',
        minLength: 1,
        description: 'The default model.',
        default: options.defaultModel,
      },
      ...options.settings,
      apiKey: { type: 'string', description: options.apiKeyDescription },
      baseURL: { type: 'string', description: options.baseURLDescription },
      ...options.clientSettings,
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
      longContext: { type: 'boolean', default: false, description: options.longContextDescription },
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
}
