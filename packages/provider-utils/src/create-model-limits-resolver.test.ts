import { describe, expect, it } from 'vitest';
import { createModelLimitsResolver } from './create-model-limits-resolver.js';
import { findModelEntry, type ModelTableEntry } from './find-model-entry.js';

const table: Record<string, ModelTableEntry> = {
  standard: { contextWindow: 200, maxOutputTokens: 20 },
  long: { contextWindow: 200, maxOutputTokens: 20, longContextWindow: 1000 },
};
const fallback = { contextWindow: 100, maxOutputTokens: 10 };

function resolver(settings: { longContext?: boolean; overrides?: Record<string, object> } = {}) {
  const warnings: string[] = [];
  const resolve = createModelLimitsResolver({
    source: '@compaction/provider-test',
    defaultModelId: 'standard',
    find: (modelId) => findModelEntry(modelId, table),
    fallback,
    warn: (message) => warnings.push(message),
    ...settings,
  });
  return { resolve, warnings };
}

describe('createModelLimitsResolver', () => {
  it('answers for the default model and for any known model', () => {
    const { resolve, warnings } = resolver();
    expect(resolve()).toEqual({ contextWindow: 200, maxOutputTokens: 20 });
    expect(resolve('long-2025')).toEqual({ contextWindow: 200, maxOutputTokens: 20 });
    expect(warnings).toEqual([]);
  });

  it('uses the long-context window only when asked and only where the model has one', () => {
    const { resolve } = resolver({ longContext: true });
    expect(resolve('long')).toEqual({ contextWindow: 1000, maxOutputTokens: 20 });
    expect(resolve('standard')).toEqual({ contextWindow: 200, maxOutputTokens: 20 });
    expect(resolve('unknown')).toEqual(fallback);
  });

  it('assumes the fallback for an unknown model and warns once per id', () => {
    const { resolve, warnings } = resolver();
    expect(resolve('unknown')).toEqual(fallback);
    resolve('unknown');
    resolve('another');
    expect(warnings).toEqual([
      '@compaction/provider-test: unknown model "unknown"; assuming a 100-token window and 10 output tokens. Set modelLimits to override.',
      '@compaction/provider-test: unknown model "another"; assuming a 100-token window and 10 output tokens. Set modelLimits to override.',
    ]);
  });

  it('lets overrides complete or replace the limits; complete overrides silence the warning', () => {
    const { resolve, warnings } = resolver({
      overrides: {
        standard: { maxOutputTokens: 5 },
        custom: { contextWindow: 50, maxOutputTokens: 7 },
        partial: { contextWindow: 70 },
      },
    });
    expect(resolve('standard')).toEqual({ contextWindow: 200, maxOutputTokens: 5 });
    expect(resolve('custom')).toEqual({ contextWindow: 50, maxOutputTokens: 7 });
    expect(warnings).toEqual([]);
    expect(resolve('partial')).toEqual({ contextWindow: 70, maxOutputTokens: 10 });
    expect(warnings).toHaveLength(1);
  });
});
