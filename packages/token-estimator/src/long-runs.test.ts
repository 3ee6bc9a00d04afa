import { get_encoding, type Tiktoken } from 'tiktoken';
import { afterAll, describe, expect, it } from 'vitest';
import { cl100kProfile, o200kProfile } from './estimator-profiles.js';
import { createTextEstimator } from './text-estimator.js';
import { measureText, measureTextInJavaScript, textFeatureCount, textFeatureNames } from './text-features.js';

/*
 * Long runs of one repeated character or a short repeated pattern (separator lines, padded fields, test
 * fixtures, blank lines) are split by BPE tokenizers into many short chunks, while the fitted features count
 * a run about once: without a floor, 'y' × 20,000 (5,000 o200k tokens) was estimated at 594, '=' × 2,000 at 1.
 * Each run is held to at least 95% of its exact count, computed here by tiktoken, in both OpenAI profiles.
 */

const lengths = [64, 1000, 20_000];
const patterns = [
  'a',
  'y',
  'x',
  'z',
  'q',
  'ab',
  'abc',
  'xyz1',
  '=',
  '-',
  '*',
  '#',
  '~',
  '!',
  '{',
  ' ',
  '\t',
  '\n',
  '\r\n',
];

function repeat(pattern: string, length: number): string {
  return pattern.repeat(Math.ceil(length / pattern.length)).slice(0, length);
}

const encodings: Tiktoken[] = [];
const profiles = [
  { profile: o200kProfile, encoding: 'o200k_base' },
  { profile: cl100kProfile, encoding: 'cl100k_base' },
] as const;

afterAll(() => {
  for (const encoding of encodings) encoding.free();
});

describe.each(profiles)('long repeated runs in the $profile.name profile', ({ profile, encoding: name }) => {
  // The bounds of the fitted features, which count text when no vocabulary does.
  const estimator = createTextEstimator({ profile, vocabulary: false });
  const encoding = get_encoding(name);
  encodings.push(encoding);

  it.each(patterns.flatMap((pattern) => lengths.map((length) => ({ pattern, length }))))(
    'counts $pattern × $length at least 95% of its exact tokens',
    ({ pattern, length }) => {
      const text = repeat(pattern, length);
      const exact = encoding.encode(text).length;
      expect(estimator.countText(text)).toBeGreaterThanOrEqual(0.95 * exact);
    },
  );

  it.each(
    patterns.flatMap((pattern) => [
      { pattern, text: `value: ${repeat(pattern, 1000)}` },
      { pattern, text: `${repeat(pattern, 1000)} end` },
    ]),
  )('counts a run of $pattern after or before other text at least 95% of its exact tokens', ({ text }) => {
    const exact = encoding.encode(text).length;
    expect(estimator.countText(text)).toBeGreaterThanOrEqual(0.95 * exact);
  });
});

describe('the floor of long runs', () => {
  it('is counted the same by the WebAssembly and the JavaScript scanner', () => {
    for (const pattern of patterns) {
      for (const length of lengths) {
        const text = `key=${repeat(pattern, length)};`;
        expect(measureText(text)).toEqual(measureTextInJavaScript(text));
      }
    }
  });

  it('leaves words, identifiers and random text that do not repeat as the features count them', () => {
    const estimator = createTextEstimator({ vocabulary: false });
    const withoutFloor = (text: string): number => {
      const features = measureTextInJavaScript(text, new Float64Array(textFeatureCount));
      let tokens = 0;
      textFeatureNames.forEach((name, index) => {
        tokens += features[index]! * o200kProfile.weights[name] * o200kProfile.safetyFactor;
      });
      return Math.max(1, Math.ceil(tokens));
    };
    for (const text of [
      'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXo=',
      'internationalizationAndLocalizationConfigurationProviderFactory',
      'deadbeef42deadbeef423f2a9c1d8e7b6a5f3f2a9c1d8e7b6a5f',
      'the quick brown fox jumps over the lazy dog',
    ]) {
      expect(estimator.countText(text)).toBe(withoutFloor(text));
    }
  });
});
