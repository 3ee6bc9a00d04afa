import { createStrategyRegistry, defineStrategy, InvalidOptionsError } from '@compaction/core';
import { pruningDefinition } from '@compaction/strategy-pruning';
import { toolResultTruncationDefinition } from '@compaction/strategy-tool-result-truncation';
import { describe, expect, it } from 'vitest';
import { counter } from './__fixtures__/counter.js';
import { countingCompaction } from './__fixtures__/summary-compaction.js';
import { nativeDefinition } from './native-definition.js';

const registry = () =>
  createStrategyRegistry({
    definitions: [nativeDefinition, pruningDefinition, toolResultTruncationDefinition],
  });

const history = Array.from({ length: 12 }, (_, index) => ({
  role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
  content: [
    {
      type: 'text' as const,
      text: `Turn ${index}: ${Array.from({ length: 40 }, (_, word) => `w${index * 97 + word}`).join(' ')}`,
    },
  ],
}));

describe('the native strategy by name', () => {
  it('uses the configured provider native compaction, and resolves its fallback list as a pipeline', async () => {
    const nativeCompaction = countingCompaction();
    const provider = { nativeCompaction } as never;
    const strategy = await registry().resolve(
      { name: 'native', options: { fallback: ['tool-result-truncation', 'pruning'] } },
      { provider },
    );
    const output = await strategy.compact({
      messages: history,
      counter,
      budget: { limit: 600, target: 300 },
      trigger: 'auto',
      round: 1,
    });
    expect(nativeCompaction.calls).toHaveLength(1);
    expect(output.details).toMatchObject({ native: { used: true, provider: 'test', compactedMessages: 10 } });
    expect(output.messages.at(-1)).toBe(history.at(-1));
  });

  it('falls back to the local pipeline without a provider that compacts natively', async () => {
    const strategy = await registry().resolve({ name: 'native', options: { fallback: ['pruning'] } });
    const output = await strategy.compact({
      messages: history,
      counter,
      budget: { limit: 600, target: 300 },
      trigger: 'auto',
      round: 1,
    });
    expect(output.details).toMatchObject({
      native: { used: false, reason: 'no native compaction configured', fallback: 'pipeline' },
    });
  });

  it('refuses options it does not know', async () => {
    await expect(registry().resolve({ name: 'native', options: { fallbak: 'pruning' } })).rejects.toThrow(
      InvalidOptionsError,
    );
  });
});

describe('whether the native strategy needs a provider', () => {
  // A local strategy that calls the provider, as a summarization that writes text does.
  const askDefinition = defineStrategy({
    specificationVersion: 'v1',
    name: 'ask',
    description: 'Asks the provider.',
    optionsSchema: { type: 'object', properties: {} },
    create: () => ({
      specificationVersion: 'v1',
      name: 'ask',
      compact: async (input) => ({ messages: [...input.messages] }),
    }),
    needsProvider: () => true,
  });
  const withAsk = createStrategyRegistry({
    definitions: [nativeDefinition, pruningDefinition, askDefinition],
  });

  it('needs one when its fallback does, and none with a local fallback that calls no model', () => {
    expect(withAsk.needsProvider?.({ name: 'native', options: { fallback: ['pruning', 'ask'] } })).toBe(true);
    expect(withAsk.needsProvider?.({ name: 'native', options: { fallback: 'pruning' } })).toBe(false);
  });
});
