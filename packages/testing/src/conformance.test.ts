import { createPipeline } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { brokenStrategies } from './__fixtures__/broken-strategies.js';
import { dropOldestTurns } from './__fixtures__/drop-oldest-turns.js';
import { type ConformancePropertyName, checkConformanceProperty } from './conformance.js';
import { describeConformance } from './vitest.js';

// Core's pipeline runs the full suite, as every strategy package does.
describeConformance('pipeline', { strategy: () => createPipeline([dropOldestTurns()]) });

const expectations: Array<[keyof typeof brokenStrategies, ConformancePropertyName, RegExp]> = [
  ['drops-a-tool-result', 'keeps-the-rules', /tool-pairing/],
  ['drops-the-system-prompt', 'keeps-the-rules', /system-kept/],
  ['edits-without-marking', 'keeps-the-rules', /latest-user-kept|unmarked-change/],
  ['mutates-its-input', 'does-not-mutate-input', /read.only|frozen|Cannot assign/i],
  ['nondeterministic', 'deterministic', /different histories/],
  ['crashes-untyped', 'throws-only-typed-errors', /not a CompactionError/],
  ['crashes-untyped', 'rejects-malformed-input', /instead of a typed error/],
  ['ignores-the-budget', 'keeps-the-rules', /within-limit/],
  ['ignores-the-budget', 'rejects-malformed-input', /valid-messages|tool-pairing/],
];

describe('the conformance suite catches broken strategies', () => {
  for (const [name, property, reason] of expectations) {
    it(`${name} fails ${property}`, async () => {
      const outcome = await checkConformanceProperty(property, {
        strategy: brokenStrategies[name],
        numRuns: 300,
      });
      expect(outcome.passed).toBe(false);
      expect(outcome.failure).toMatch(reason);
    });
  }

  it('the reference strategy passes every property the broken ones fail', async () => {
    for (const property of new Set(expectations.map(([, property]) => property))) {
      const outcome = await checkConformanceProperty(property, {
        strategy: dropOldestTurns(),
        numRuns: 300,
      });
      expect(outcome.failure).toBeUndefined();
    }
  });
});
