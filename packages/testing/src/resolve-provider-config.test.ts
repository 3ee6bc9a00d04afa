import { InvalidOptionsError, type ProviderDefinition } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { createMockProvider } from './mock-provider.js';
import { resolveProviderConfig } from './resolve-provider-config.js';

const definition: ProviderDefinition<{ model?: string }> = {
  specificationVersion: 'v1',
  name: 'scripted',
  description: 'A scripted provider.',
  settingsSchema: {
    type: 'object',
    properties: { model: { type: 'string', default: 'model-a' } },
    additionalProperties: false,
  },
  create: () => createMockProvider(),
};

describe('resolveProviderConfig', () => {
  it('loads the adapter by package name and gives its provider to the strategy', async () => {
    const resolved = await resolveProviderConfig({
      provider: { name: 'scripted' },
      load: async () => ({ default: definition }),
    });
    expect(resolved.loaded).toEqual(['@compaction/provider-scripted']);
    expect(resolved.provider).toBeDefined();
    expect(resolved.strategyProviders).toEqual([resolved.provider]);
    await expect(resolved.providers.resolve({ name: 'scripted', modle: 'x' })).rejects.toThrow(
      InvalidOptionsError,
    );
  });
});
