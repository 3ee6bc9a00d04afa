import { describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { JSONObject } from '../json.js';
import type { CompactionStrategy } from '../specs/compaction-strategy-v1.js';
import type { CompactionTriggerPolicy } from '../specs/compaction-trigger-policy-v1.js';
import { resolveCompactionConfig } from './compaction-config.js';
import { defineStrategy } from './strategy-definition.js';
import { createStrategyRegistry } from './strategy-registry.js';

const keep: CompactionStrategy = {
  specificationVersion: 'v1',
  name: 'keep',
  compact: async (input) => ({ messages: [...input.messages] }),
};
const registry = createStrategyRegistry({
  definitions: [
    defineStrategy({
      specificationVersion: 'v1',
      name: 'keep',
      description: 'Test strategy.',
      optionsSchema: { type: 'object' },
      create: () => keep,
    }),
  ],
  loadPackage: false,
});
const given: JSONObject[] = [];
const triggerPolicies = {
  'cache-aware': (options: JSONObject): CompactionTriggerPolicy => {
    given.push(options);
    return { name: 'cache-aware', decide: () => ({ compact: false }) };
  },
};

describe('a config names its trigger policy', () => {
  it('by name, or by name with options', async () => {
    const byName = await resolveCompactionConfig(
      { strategy: 'keep', triggerPolicy: 'cache-aware' },
      registry,
      {
        triggerPolicies,
      },
    );
    expect(byName.triggerPolicy?.name).toBe('cache-aware');
    const withOptions = await resolveCompactionConfig(
      { strategy: 'keep', triggerPolicy: { name: 'cache-aware', options: { clearTo: 0.2 } } },
      registry,
      { triggerPolicies },
    );
    expect(withOptions.triggerPolicy?.name).toBe('cache-aware');
    expect(given).toEqual([{}, { clearTo: 0.2 }]);
    const without = await resolveCompactionConfig({ strategy: 'keep' }, registry, { triggerPolicies });
    expect(without.triggerPolicy).toBeUndefined();
  });

  it('an unknown name throws InvalidOptionsError naming the known ones', async () => {
    const failure = resolveCompactionConfig({ strategy: 'keep', triggerPolicy: 'soon' }, registry, {
      triggerPolicies,
    });
    await expect(failure).rejects.toBeInstanceOf(InvalidOptionsError);
    await expect(failure).rejects.toThrow(
      /triggerPolicy.*unknown trigger policy "soon" \(known: cache-aware\)/s,
    );
    await expect(
      resolveCompactionConfig({ strategy: 'keep', triggerPolicy: { name: 'x', when: 1 } } as never, registry),
    ).rejects.toThrow(/triggerPolicy/);
  });
});
