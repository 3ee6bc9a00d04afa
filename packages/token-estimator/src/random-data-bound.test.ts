import fc from 'fast-check';
import { get_encoding, type Tiktoken } from 'tiktoken';
import { afterAll, describe, expect, it } from 'vitest';
import { boundedLength, randomData } from './__fixtures__/random-data-arbitraries.js';
import { cl100kProfile, o200kProfile } from './estimator-profiles.js';
import { createTextEstimator } from './text-estimator.js';

/** The most an estimate may be under the exact count. */
const underLimit = 0.05;

const tokenizers = [
  { profile: o200kProfile, encoding: get_encoding('o200k_base') },
  { profile: cl100kProfile, encoding: get_encoding('cl100k_base') },
];

afterAll(() => {
  for (const { encoding } of tokenizers) encoding.free();
});

function exactCount(encoding: Tiktoken, text: string): number {
  return encoding.encode_ordinary(text).length;
}

describe.each(tokenizers)('the $profile.name profile against tiktoken', ({ profile, encoding }) => {
  // The bounds of the fitted features, which count text when no vocabulary does.
  const estimator = createTextEstimator({ profile, vocabulary: false });

  it(`is never more than ${underLimit * 100}% under on random data of ${boundedLength} characters and more`, () => {
    fc.assert(
      fc.property(randomData, (text) => {
        expect(estimator.countText(text)).toBeGreaterThanOrEqual(
          (1 - underLimit) * exactCount(encoding, text),
        );
      }),
      { numRuns: 200 },
    );
  });
});
