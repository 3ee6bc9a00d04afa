import { InvalidOptionsError, validateOptions } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { providerSettingsSchema } from './provider-settings-schema.js';

const schema = providerSettingsSchema({
  defaultModel: 'model-a',
  apiKeyDescription: 'API key.',
  baseURLDescription: 'API base URL.',
  longContextDescription: 'Use long windows.',
  settings: { api: { enum: ['one', 'two'], default: 'one' } },
  clientSettings: { organization: { type: 'string' } },
});

describe('providerSettingsSchema', () => {
  it('fills in the defaults', () => {
    expect(validateOptions(schema, {}, 'provider "test"')).toEqual({
      model: 'model-a',
      api: 'one',
      longContext: false,
    });
  });

  it('accepts the shared and the provider-specific settings', () => {
    const settings = {
      model: 'model-b',
      api: 'two',
      apiKey: 'key',
      baseURL: 'http://127.0.0.1:1',
      organization: 'org',
      headers: { 'x-test': '1' },
      maxRetries: 0,
      timeout: 1000,
      longContext: true,
      maxOutputTokens: 100,
      modelLimits: { 'model-b': { contextWindow: 1000, maxOutputTokens: 10 } },
    };
    expect(validateOptions(schema, settings, 'provider "test"')).toEqual(settings);
  });

  it('rejects unknown and invalid settings', () => {
    const invalid = [
      { modle: 'typo' },
      { model: '' },
      { api: 'three' },
      { maxRetries: -1 },
      { timeout: 0 },
      { headers: { 'x-test': 1 } },
      { modelLimits: { model: { contextWindow: 0 } } },
      { modelLimits: { model: { window: 10 } } },
    ];
    for (const settings of invalid) {
      expect(() => validateOptions(schema, settings, 'provider "test"')).toThrow(InvalidOptionsError);
    }
  });

  it('keeps the documented property order: model, own settings, client settings, limits', () => {
    expect(Object.keys(schema.properties ?? {})).toEqual([
      'model',
      'api',
      'apiKey',
      'baseURL',
      'organization',
      'headers',
      'maxRetries',
      'timeout',
      'longContext',
      'maxOutputTokens',
      'modelLimits',
    ]);
  });
});
