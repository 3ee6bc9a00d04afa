import { describe, expect, it } from 'vitest';
import { findModelEntry, type ModelTableEntry } from './find-model-entry.js';
import { sdkProviderModelLimits } from './sdk-provider-settings.js';

const table: Record<string, ModelTableEntry> = {
  long: { contextWindow: 200, maxOutputTokens: 20, longContextWindow: 1000 },
};
const modelTable = {
  source: '@compaction/provider-test',
  defaultModelId: 'long',
  find: (modelId: string) => findModelEntry(modelId, table),
  fallback: { contextWindow: 100, maxOutputTokens: 10 },
};

describe('sdkProviderModelLimits', () => {
  it('reads the table with the standard window unless the settings ask for the long one', () => {
    expect(sdkProviderModelLimits({}, modelTable)()).toEqual({ contextWindow: 200, maxOutputTokens: 20 });
    expect(sdkProviderModelLimits({ longContext: true }, modelTable)()).toEqual({
      contextWindow: 1000,
      maxOutputTokens: 20,
    });
  });

  it("applies the settings' overrides and sends the unknown-model warning to their sink", () => {
    const warnings: string[] = [];
    const resolve = sdkProviderModelLimits(
      { modelLimits: { long: { maxOutputTokens: 50 } }, warn: (message) => warnings.push(message) },
      modelTable,
    );
    expect(resolve()).toEqual({ contextWindow: 200, maxOutputTokens: 50 });
    expect(resolve('other')).toEqual({ contextWindow: 100, maxOutputTokens: 10 });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('@compaction/provider-test: unknown model "other"');
  });
});
