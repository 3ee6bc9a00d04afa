import {
  createTextEstimator,
  measureText,
  type TextFeature,
  textFeatureBonds,
  textFeatureNames,
} from '@compaction/token-estimator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calibrateProfile } from './calibrate-profile.js';

/** Any string: arbitrary code points, graphemes, and pieces that tokenizers treat specially glued together. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc
    .array(
      fc.oneof(
        fc.constantFrom(
          'getUserName',
          'Zm9vYmFy',
          'xq',
          ' 42',
          '\n    ',
          '});',
          '上下文',
          'Привет',
          '😀',
          '\ud800',
        ),
        fc.string({ unit: 'binary', maxLength: 4 }),
      ),
      { maxLength: 40 },
    )
    .map((pieces) => pieces.join('')),
);

/** An "exact" tokenizer that is a known linear function of the features, so the fit must recover it. */
function linearCounter(weights: Partial<Record<TextFeature, number>>) {
  return (text: string) => {
    const measured = measureText(text);
    let tokens = 0;
    textFeatureNames.forEach((name, index) => {
      tokens += (weights[name] ?? 0) * measured[index]!;
    });
    return tokens;
  };
}

const corpus = [
  'The agent reads the file and runs the tests.',
  'export function countTokens(messages: Message[]): number { return 0; }',
  '{"level":"info","status":200,"path":"/users/42"}',
  'FAIL tests/cache.test.ts > evicts the least recently used entry (12 ms)',
  '上下文窗口压缩。对话历史。',
  'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3A',
  'commit 3f2a9c1d8e7b6a5f4e3d',
  'Привет, как дела? 😀',
  '    indented\n\n    lines 123 and 4567',
];

describe('calibrateProfile', () => {
  it('recovers the weights of a tokenizer that is linear in the features', () => {
    const truth = {
      letterPieces: 1,
      letters: 0.05,
      punctuation: 0.5,
      cjk: 0.7,
      digitGroups: 1.2,
      rareLetterPairs: 0.6,
    };
    const profile = calibrateProfile(corpus, linearCounter(truth), { name: 'linear' });
    expect(profile.name).toBe('linear');
    for (const [feature, weight] of Object.entries(truth)) {
      expect(profile.weights[feature as TextFeature]).toBeCloseTo(weight, 2);
    }
    expect(profile.safetyFactor).toBeGreaterThanOrEqual(1);
    expect(profile.safetyFactor).toBeLessThan(1.01);
  });

  it('fits non-negative weights and a safety factor that bounds under-counting', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }), {
          minLength: 3,
          maxLength: 20,
        }),
        (texts) => {
          // A tokenizer the features cannot express exactly: one token per 3 UTF-16 units, rounded up.
          const exact = (text: string) => Math.ceil(text.length / 3);
          const profile = calibrateProfile(texts, exact, { minimumSampleTokens: 1, underCountShare: 0 });
          for (const weight of Object.values(profile.weights)) expect(weight).toBeGreaterThanOrEqual(0);
          const estimator = createTextEstimator({ profile });
          for (const text of texts) {
            expect(estimator.countText(text)).toBeGreaterThanOrEqual(Math.floor(0.98 * exact(text) - 1e-9));
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('holds the weights that added text can take away, so no estimate drops by more than maximumDrop', () => {
    const truth = { letterPieces: 1, digitGroups: 1, rareLetterPairs: 1.5, spacedNumbers: 2, spaceRuns: 1 };
    const held = calibrateProfile(corpus, linearCounter(truth));
    for (const group of textFeatureBonds) {
      const total = group.reduce((sum, feature) => sum + held.weights[feature], 0);
      expect(total * held.safetyFactor).toBeLessThanOrEqual(1);
    }
    expect(held.weights.rareLetterPairs).toBeGreaterThan(0.9);
    // Without the hold the fit recovers the truth, and a fixed weight is kept as given.
    const free = calibrateProfile(corpus, linearCounter(truth), { maximumDrop: Number.POSITIVE_INFINITY });
    expect(free.weights.rareLetterPairs).toBeCloseTo(1.5, 2);
    expect(free.weights.spacedNumbers).toBeCloseTo(2, 2);
    const fixed = calibrateProfile(corpus, linearCounter(truth), { fixedWeights: { rareLetterPairs: 1.5 } });
    expect(fixed.weights.rareLetterPairs).toBe(1.5);
  });

  it('fits profiles whose estimates never drop by more than one token when text is added', () => {
    const weight = fc.double({ min: 0, max: 3, noNaN: true });
    const truth = fc.record(Object.fromEntries(textFeatureNames.map((feature) => [feature, weight])));
    fc.assert(
      fc.property(
        truth,
        fc.array(fc.tuple(anyText, anyText, fc.nat()), { maxLength: 20 }),
        (weights, cases) => {
          // Whole tokens, as every tokenizer counts.
          const exact = (text: string) => Math.ceil(linearCounter(weights)(text));
          const profile = calibrateProfile(corpus, exact);
          const estimator = createTextEstimator({ profile });
          for (const [text, added, at] of cases) {
            const index = at % (text.length + 1);
            const longer = text.slice(0, index) + added + text.slice(index);
            expect(estimator.countText(longer)).toBeGreaterThanOrEqual(estimator.countText(text) - 1);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('keeps fixed weights, uses fallbacks for absent features and honours sample weights', () => {
    const truth = { letterPieces: 1, punctuation: 0.5, surrogates: 1 };
    const profile = calibrateProfile(corpus, linearCounter(truth), {
      fixedWeights: { surrogates: 1 },
      fallbackWeights: { cjk: 9 },
      safetyFactor: 1.1,
    });
    expect(profile.weights.surrogates).toBe(1);
    expect(profile.weights.letterPieces).toBeCloseTo(1, 2);
    expect(profile.safetyFactor).toBe(1.1);
    const withoutCjk = calibrateProfile(['plain words only'], linearCounter(truth), {
      fallbackWeights: { cjk: 9 },
    });
    expect(withoutCjk.weights.cjk).toBe(9);
    // A sample with weight 0 does not count at all.
    const ignored = calibrateProfile([...corpus, { text: 'x'.repeat(500), weight: 0 }], (text) =>
      text.startsWith('xxx') ? 10_000 : linearCounter(truth)(text),
    );
    expect(ignored.weights.letterPieces).toBeCloseTo(1, 2);
  });
});
