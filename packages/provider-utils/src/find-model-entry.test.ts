import { describe, expect, it } from 'vitest';
import { findModelEntry, type ModelTableEntry } from './find-model-entry.js';

const table: Record<string, ModelTableEntry> = {
  'model-a': { contextWindow: 100, maxOutputTokens: 10 },
  'model-a-mini': { contextWindow: 50, maxOutputTokens: 5 },
  'model-a-mini-2025': { contextWindow: 60, maxOutputTokens: 6, longContextWindow: 600 },
};

describe('findModelEntry', () => {
  it('prefers the exact id', () => {
    expect(findModelEntry('model-a-mini', table)).toBe(table['model-a-mini']);
  });

  it('falls back to the longest matching prefix', () => {
    expect(findModelEntry('model-a-2025-01-01', table)).toBe(table['model-a']);
    expect(findModelEntry('model-a-mini-latest', table)).toBe(table['model-a-mini']);
    expect(findModelEntry('model-a-mini-2025-06-01', table)).toBe(table['model-a-mini-2025']);
  });

  it('returns undefined when no key matches', () => {
    expect(findModelEntry('other-model', table)).toBeUndefined();
    expect(findModelEntry('model', table)).toBeUndefined();
  });
});
