import { createStrategyRegistry, defineStrategy } from '@compaction/core';
import { slidingWindowDefinition } from '@compaction/strategy-sliding-window';
import { summarizationDefinition } from '@compaction/strategy-summarization';
import { toolResultTruncationDefinition } from '@compaction/strategy-tool-result-truncation';
import { expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { strategyNeedingProvider } from './provider-needed.js';

/** A strategy of an application's own that calls the provider unless told to stay offline. */
const oracleDefinition = defineStrategy<{ offline?: boolean }>({
  specificationVersion: 'v1',
  name: 'oracle',
  description: 'Asks the provider what to keep.',
  optionsSchema: { type: 'object', properties: { offline: { type: 'boolean', default: false } } },
  create: () => ({
    specificationVersion: 'v1',
    name: 'oracle',
    compact: async (input) => ({ messages: [...input.messages] }),
  }),
  needsProvider: (options) => options.offline !== true,
});

const registry = createStrategyRegistry({
  loadPackage: false,
  definitions: [
    toolResultTruncationDefinition,
    slidingWindowDefinition,
    summarizationDefinition,
    oracleDefinition,
  ],
});

// Definitions and options only: nothing a second Node version could change.
describeOnFullRun('strategyNeedingProvider', () => {
  it('names summarization by name or with a summarizer output, alone or in a pipeline', () => {
    expect(strategyNeedingProvider(registry, 'summarization')).toBe('summarization');
    expect(strategyNeedingProvider(registry, ['tool-result-truncation', 'summarization'])).toBe(
      'summarization',
    );
    expect(
      strategyNeedingProvider(registry, [{ name: 'summarization', options: { maxOutputTokens: 500 } }]),
    ).toBe('summarization');
    expect(
      strategyNeedingProvider(registry, {
        name: 'pipeline',
        options: { stages: ['sliding-window', 'summarization'] },
      }),
    ).toBe('pipeline');
  });

  it('is undefined for summarization with maxOutputTokens 0, which writes the artifact trail alone', () => {
    expect(
      strategyNeedingProvider(registry, [
        'tool-result-truncation',
        { name: 'summarization', options: { maxOutputTokens: 0, placement: 'assistant-after-task' } },
      ]),
    ).toBeUndefined();
    expect(strategyNeedingProvider(registry, ['tool-result-truncation', 'sliding-window'])).toBeUndefined();
  });

  it('asks a strategy of an application’s own, as its definition says', () => {
    expect(strategyNeedingProvider(registry, ['sliding-window', 'oracle'])).toBe('oracle');
    expect(strategyNeedingProvider(registry, { name: 'oracle', options: { offline: true } })).toBeUndefined();
    expect(strategyNeedingProvider(registry, { name: 'pipeline', options: { stages: ['oracle'] } })).toBe(
      'pipeline',
    );
  });

  it('looks into the options of a strategy not loaded yet for the strategies nested in them', () => {
    expect(
      strategyNeedingProvider(registry, [{ name: 'native', options: { fallback: 'summarization' } }]),
    ).toBe('native');
    expect(
      strategyNeedingProvider(registry, [
        {
          name: 'native',
          options: { fallback: [{ name: 'summarization', options: { maxOutputTokens: 0 } }] },
        },
      ]),
    ).toBeUndefined();
    expect(strategyNeedingProvider(registry, 'native')).toBeUndefined();
  });
});
