import { describe, expect, it } from 'vitest';
import type { CompactionStrategy } from '../specs/compaction-strategy-v1.js';
import { defineStrategy } from './strategy-definition.js';
import { strategyNeedsProvider } from './strategy-needs-provider.js';
import { createStrategyRegistry } from './strategy-registry.js';

const keepAll = (name: string): CompactionStrategy => ({
  specificationVersion: 'v1',
  name,
  compact: async (input) => ({ messages: [...input.messages] }),
});

/** A strategy that calls the provider unless its `offline` option is set. */
const askDefinition = defineStrategy<{ offline?: boolean }>({
  specificationVersion: 'v1',
  name: 'ask',
  description: 'Asks the provider.',
  optionsSchema: { type: 'object', properties: { offline: { type: 'boolean', default: false } } },
  create: () => keepAll('ask'),
  needsProvider: (options) => options.offline !== true,
});

const plainDefinition = defineStrategy({
  specificationVersion: 'v1',
  name: 'plain',
  description: 'Calls no provider.',
  optionsSchema: { type: 'object', properties: {}, additionalProperties: false },
  create: () => keepAll('plain'),
});

const registry = createStrategyRegistry({
  loadPackage: false,
  definitions: [askDefinition, plainDefinition],
});

describe('strategyNeedsProvider', () => {
  it('asks each definition with its options validated, defaults filled in', () => {
    expect(strategyNeedsProvider(registry, 'ask')).toBe(true);
    expect(strategyNeedsProvider(registry, { name: 'ask', options: { offline: true } })).toBe(false);
    expect(strategyNeedsProvider(registry, 'plain')).toBe(false);
    expect(strategyNeedsProvider(registry, ['plain', 'ask'])).toBe(true);
    // What applications call: the registry's own method.
    expect(registry.needsProvider?.(['plain', { name: 'ask', options: { offline: true } }])).toBe(false);
    expect(registry.needsProvider?.({ name: 'pipeline', options: { stages: ['ask'] } })).toBe(true);
  });

  it('answers for a pipeline from its stages, and false for invalid options (resolving reports them)', () => {
    expect(strategyNeedsProvider(registry, { name: 'pipeline', options: { stages: ['plain', 'ask'] } })).toBe(
      true,
    );
    expect(strategyNeedsProvider(registry, { name: 'pipeline', options: { stages: ['plain'] } })).toBe(false);
    expect(strategyNeedsProvider(registry, { name: 'ask', options: { offline: 'yes' } })).toBe(false);
  });

  it('looks into the options of a name not registered for the strategies nested in them', () => {
    expect(
      strategyNeedsProvider(registry, { name: 'wrapper', options: { fallback: ['plain', 'ask'] } }),
    ).toBe(true);
    expect(strategyNeedsProvider(registry, { name: 'wrapper', options: { mode: 'fast' } })).toBe(false);
    expect(strategyNeedsProvider(registry, 'wrapper')).toBe(false);
  });
});
