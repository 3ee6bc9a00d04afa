import { describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { ProviderNotFoundError } from '../errors/provider-not-found-error.js';
import type { Provider } from '../specs/provider-v1.js';
import { resolveCompactionConfig } from './compaction-config.js';
import type { ProviderDefinition } from './provider-definition.js';
import { createProviderRegistry } from './provider-registry.js';
import { defineStrategy } from './strategy-definition.js';
import { createStrategyRegistry } from './strategy-registry.js';

const fakeProvider = (modelId: string): Provider => ({
  specificationVersion: 'v1',
  name: 'fake',
  modelId,
  generate: async () => ({ text: '', finishReason: 'stop' }),
  modelLimits: () => ({ contextWindow: 1000, maxOutputTokens: 100 }),
});

const fakeDefinition: ProviderDefinition<{ model: string }> = {
  specificationVersion: 'v1',
  name: 'fake',
  description: 'Test provider.',
  settingsSchema: {
    type: 'object',
    properties: { model: { type: 'string', default: 'fake-small' } },
    additionalProperties: false,
  },
  create: (settings) => fakeProvider(settings.model),
};

describe('ProviderRegistry', () => {
  it('resolves a provider by name with validated settings', async () => {
    const registry = createProviderRegistry({ definitions: [fakeDefinition], loadPackage: false });
    expect((await registry.resolve({ name: 'fake' })).modelId).toBe('fake-small');
    expect((await registry.resolve({ name: 'fake', model: 'fake-large' })).modelId).toBe('fake-large');
    await expect(registry.resolve({ name: 'fake', temperature: 2 })).rejects.toThrow(InvalidOptionsError);
  });

  it('loads @compaction/provider-<name>, or says which package to install', async () => {
    const loaded: string[] = [];
    const registry = createProviderRegistry({
      loadPackage: async (packageName) => {
        loaded.push(packageName);
        return { default: fakeDefinition };
      },
    });
    await registry.resolve({ name: 'fake' });
    expect(loaded).toEqual(['@compaction/provider-fake']);
    const missing = await createProviderRegistry()
      .resolve({ name: 'nowhere' })
      .catch((error: unknown) => error);
    expect(ProviderNotFoundError.isInstance(missing)).toBe(true);
    expect((missing as Error).message).toContain('Install @compaction/provider-nowhere');
  });

  it('gives the config provider to the strategies that need one', async () => {
    const seen: Array<string | undefined> = [];
    const needsProvider = defineStrategy<Record<string, never>>({
      specificationVersion: 'v1',
      name: 'needs-provider',
      description: 'Test strategy.',
      optionsSchema: { type: 'object' },
      create: (_, context) => {
        seen.push(context.provider?.modelId);
        return {
          specificationVersion: 'v1',
          name: 'needs-provider',
          compact: async (input) => ({ messages: [...input.messages] }),
        };
      },
    });
    const strategies = createStrategyRegistry({ definitions: [needsProvider], loadPackage: false });
    const providers = createProviderRegistry({ definitions: [fakeDefinition], loadPackage: false });
    const resolved = await resolveCompactionConfig(
      { strategy: 'needs-provider', provider: { name: 'fake', model: 'fake-large' } },
      strategies,
      { providers },
    );
    expect(seen).toEqual(['fake-large']);
    expect(resolved.provider?.modelId).toBe('fake-large');
  });
});
