import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findModelEntry } from './find-model-entry.js';
import { modelTable } from './model-table.js';

const limits = fc.record(
  {
    contextWindow: fc.integer({ min: 1, max: 2_000_000 }),
    maxOutputTokens: fc.integer({ min: 1, max: 200_000 }),
    longContextWindow: fc.integer({ min: 1, max: 2_000_000 }),
  },
  { requiredKeys: ['contextWindow', 'maxOutputTokens'] },
);
const rows = fc.array(
  fc.tuple(limits, fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 4 })),
  {
    maxLength: 6,
  },
);

describe('modelTable', () => {
  it('gives every prefix the limits of the last row that lists it, each as its own copy', () => {
    fc.assert(
      fc.property(rows, (given) => {
        const table = modelTable(given);
        const expected = new Map<string, object>();
        for (const [rowLimits, prefixes] of given)
          for (const prefix of prefixes) expected.set(prefix, rowLimits);
        expect(Object.keys(table).sort()).toEqual([...expected.keys()].sort());
        for (const [prefix, rowLimits] of expected) {
          expect(table[prefix]).toEqual(rowLimits);
          expect(table[prefix]).not.toBe(rowLimits);
        }
      }),
    );
  });

  it('builds a table findModelEntry reads by exact id, then by longest prefix', () => {
    const table = modelTable([
      [{ contextWindow: 128_000, maxOutputTokens: 16_384 }, ['gpt-4o', 'chatgpt-4o']],
      [{ contextWindow: 200_000, maxOutputTokens: 100_000, longContextWindow: 1_000_000 }, ['gpt-4o-mini']],
    ]);
    expect(findModelEntry('gpt-4o-2024-08-06', table)).toEqual({
      contextWindow: 128_000,
      maxOutputTokens: 16_384,
    });
    expect(findModelEntry('gpt-4o-mini-2024', table)?.longContextWindow).toBe(1_000_000);
    expect(findModelEntry('claude', table)).toBeUndefined();
  });

  it('does not change the rows it is given', () => {
    const row = [{ contextWindow: 8_192, maxOutputTokens: 4_096 }, ['gpt-4']] as const;
    const copy = structuredClone(row);
    modelTable([row]);
    expect(row).toEqual(copy);
  });
});
