import fc from 'fast-check';
import { get_encoding } from 'tiktoken';
import { describe, expect, it } from 'vitest';
import { anyText, realisticText } from './__fixtures__/text-arbitraries.js';
import { anthropicProfile } from './anthropic-profile.js';
import { InvalidEstimatorSettingsError } from './errors/invalid-estimator-settings-error.js';
import { cl100kProfile, o200kProfile } from './estimator-profiles.js';
import { createTextEstimator } from './text-estimator.js';
import { measureText, textFeatureBonds, textFeatureNames } from './text-features.js';

/**
 * Counting by the fitted features, which runs when no vocabulary is loaded: its bounds (adding text, parts and
 * whole, the pieces' floor) are the tests of this file. Through the vocabulary, the default, every count is the
 * tokenizer's, times the safety factor (tested here, and against tiktoken in guarantee-bound.test.ts and the
 * vocabulary's tests).
 */
const estimator = createTextEstimator({ vocabulary: false });

/** The estimator of every shipped profile, by its features. */
const shippedEstimators = [o200kProfile, cl100kProfile, anthropicProfile].map((profile) =>
  createTextEstimator({ profile, vocabulary: false }),
);

/** Where to add text: at the start, at the end, or anywhere (a fraction of the length). */
const place = fc.oneof(fc.constant(0), fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true }));

function insert(text: string, added: string, at: number): string {
  const index = Math.round(at * text.length);
  return text.slice(0, index) + added + text.slice(index);
}

describe('createTextEstimator', () => {
  it('counts non-negative whole tokens and never throws, whatever the string', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const tokens = estimator.countText(text);
        expect(Number.isInteger(tokens)).toBe(true);
        expect(tokens).toBeGreaterThanOrEqual(0);
        expect(tokens === 0).toBe(text.length === 0);
      }),
      { numRuns: 2000 },
    );
  });

  it('never counts a text with text added (before, after or inside) more than one token lower', () => {
    for (const shipped of shippedEstimators) {
      fc.assert(
        fc.property(anyText, anyText, place, (text, added, at) => {
          expect(shipped.countText(insert(text, added, at))).toBeGreaterThanOrEqual(
            shipped.countText(text) - 1,
          );
        }),
        { numRuns: 3000 },
      );
    }
  });

  it('never counts a realistic text with realistic text added more than one token lower', () => {
    for (const shipped of shippedEstimators) {
      fc.assert(
        fc.property(realisticText, realisticText, place, (text, added, at) => {
          expect(shipped.countText(insert(text, added, at))).toBeGreaterThanOrEqual(
            shipped.countText(text) - 1,
          );
        }),
        { numRuns: 1000 },
      );
    }
  });

  it('never counts six letters of another alphabet in front of a text below the text alone', () => {
    // Found by a property test when a blob glued to words was counted as one run: the letters turned the run
    // from "blob" into "words", and the count from 40 to 25.
    const text = 'getUserNameZm9vYmFyYmF6cXV4MTIzNDU2Nzg5ПриветgetUserName上下文\n';
    expect(estimator.countText(`Привет${text}`)).toBeGreaterThanOrEqual(estimator.countText(text));
  });

  it('may count one token less when a letter breaks a rare pair of letters, and no less', () => {
    // `Zm` is a rare pair, `Za` and `am` are not: the one place the added letter separates is the only loss.
    const blob = 'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5';
    const withLetter = `Za${blob.slice(1)}`;
    const rarePairs = (text: string) => measureText(text)[textFeatureNames.indexOf('rareLetterPairs')];
    expect(rarePairs(withLetter)).toBe(rarePairs(blob)! - 1);
    expect(estimator.countText(withLetter)).toBeGreaterThanOrEqual(estimator.countText(blob) - 1);
  });

  it('counts a text no higher than its parts counted apart, plus one token', () => {
    // The token counter estimates messages one by one: the parts never under-count the whole by more.
    for (const shipped of shippedEstimators) {
      fc.assert(
        fc.property(anyText, anyText, (left, right) => {
          expect(shipped.countText(left + right)).toBeLessThanOrEqual(
            shipped.countText(left) + shipped.countText(right) + 1,
          );
        }),
        { numRuns: 2000 },
      );
    }
  });

  it('keeps every place where added text can lower a count under one token, in every shipped profile', () => {
    for (const profile of [o200kProfile, cl100kProfile, anthropicProfile]) {
      for (const group of textFeatureBonds) {
        const tokens =
          group.reduce((sum, feature) => sum + profile.weights[feature], 0) * profile.safetyFactor;
        expect(tokens).toBeLessThanOrEqual(1);
      }
    }
  });

  it('by default, counts every text as the tokenizer does, times the safety factor', () => {
    const encoders = { o200k: get_encoding('o200k_base'), cl100k: get_encoding('cl100k_base') };
    const exact = (text: string, encoding: 'o200k' | 'cl100k') =>
      encoders[encoding].encode_ordinary(text).length;
    const [o200k, cl100k, anthropic] = [o200kProfile, cl100kProfile, anthropicProfile].map((profile) =>
      createTextEstimator({ profile }),
    );
    try {
      fc.assert(
        fc.property(fc.oneof(anyText, realisticText), (text) => {
          // The empty text is 0 tokens in both (the first property of this file).
          fc.pre(text.length > 0);
          expect(o200k!.countText(text)).toBe(Math.max(1, exact(text, 'o200k')));
          expect(cl100k!.countText(text)).toBe(Math.max(1, exact(text, 'cl100k')));
          const larger = Math.max(exact(text, 'o200k'), exact(text, 'cl100k'));
          expect(anthropic!.countText(text)).toBe(
            Math.max(1, Math.ceil(larger * anthropicProfile.safetyFactor)),
          );
        }),
        { numRuns: 500 },
      );
    } finally {
      encoders.o200k.free();
      encoders.cl100k.free();
    }
  });

  it('with vocabulary: false, or a profile without vocabularies, counts every text by its features', () => {
    const chinese = '压缩对话历史以保持在上下文窗口之内。'.repeat(20);
    const withoutVocabularies = createTextEstimator({ profile: { ...o200kProfile, vocabularies: [] } });
    expect(withoutVocabularies.name).toBe('features:o200k');
    expect(estimator.name).toBe('features:o200k');
    expect(estimator.countText(chinese)).toBe(withoutVocabularies.countText(chinese));
    expect(createTextEstimator().countText(chinese)).not.toBe(estimator.countText(chinese));
  });

  it('counts dense content far above characters / 4', () => {
    const json = JSON.stringify({ id: 123456, ok: true, items: [1, 2, 3], path: '/a/b' });
    expect(estimator.countText(json)).toBeGreaterThan(json.length / 4);
    const chinese = '压缩对话历史以保持在上下文窗口之内';
    expect(estimator.countText(chinese)).toBeGreaterThan(chinese.length / 2);
    expect(estimator.countText('<|endoftext|>')).toBeGreaterThan(1);
  });

  it('never counts fewer tokens than the pieces the pre-tokenizers cut a text into', () => {
    // Six pieces a line (`user` `,` ` id` `,` ` get` and the line feed), each a token at least in o200k and
    // cl100k; the fitted weights alone price the short words at the average word and count about 4.6.
    const list = 'user, id, get\n'.repeat(100);
    for (const shipped of shippedEstimators) expect(shipped.countText(list)).toBeGreaterThanOrEqual(600);
    const numbers = '-5e-324\n0'.repeat(100);
    // `-` `5` `e` `-` `324` `\n` `0` a copy.
    for (const shipped of shippedEstimators) expect(shipped.countText(numbers)).toBeGreaterThanOrEqual(700);
  });

  it('applies the safety factor and the profile', () => {
    const text = 'The agent reads the file, runs the tests and reports 3 failures.\n'.repeat(20);
    const plain = createTextEstimator({ safetyFactor: 1 }).countText(text);
    const doubled = createTextEstimator({ safetyFactor: 2 }).countText(text);
    expect(doubled).toBeGreaterThanOrEqual(2 * plain - 1);
    expect(doubled).toBeLessThanOrEqual(2 * plain + 1);
    expect(o200kProfile.safetyFactor).toBeGreaterThanOrEqual(1);
    const anthropic = createTextEstimator({ profile: anthropicProfile });
    const cl100k = createTextEstimator({ profile: cl100kProfile });
    const o200k = createTextEstimator();
    expect(anthropic.name).toBe('fast:anthropic');
    // The Anthropic profile is the conservative one: never below the OpenAI profiles.
    fc.assert(
      fc.property(anyText, (sample) => {
        expect(anthropic.countText(sample)).toBeGreaterThanOrEqual(o200k.countText(sample));
        expect(anthropic.countText(sample)).toBeGreaterThanOrEqual(cl100k.countText(sample));
      }),
      { numRuns: 500 },
    );
  });

  it('rejects a bad safety factor or weight with a typed error that names each problem', () => {
    expect(() => createTextEstimator({ safetyFactor: 0 })).toThrow(InvalidEstimatorSettingsError);
    try {
      createTextEstimator({
        safetyFactor: Number.NaN,
        profile: { ...o200kProfile, weights: { ...o200kProfile.weights, cjk: -1 } },
      });
      expect.unreachable('the settings are invalid');
    } catch (error) {
      expect(InvalidEstimatorSettingsError.isInstance(error)).toBe(true);
      expect((error as InvalidEstimatorSettingsError).issues.map((issue) => issue.path)).toEqual([
        'safetyFactor',
        'profile.weights.cjk',
      ]);
      expect((error as Error).message).toMatch(/profile\.weights\.cjk: must be a number >= 0, got -1/);
    }
    expect(InvalidEstimatorSettingsError.isInstance(new Error('other'))).toBe(false);
  });
});
