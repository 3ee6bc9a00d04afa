import fc from 'fast-check';
import { get_encoding, type Tiktoken } from 'tiktoken';
import { afterAll, describe, expect, it } from 'vitest';
import {
  boundedProseLength,
  boundedScripts,
  emojiBlockSymbols,
  emojiText,
  scriptProse,
  shortWordLists,
} from './__fixtures__/script-prose.js';
import { cl100kProfile, o200kProfile } from './estimator-profiles.js';
import { createTextEstimator } from './text-estimator.js';

/** The most an estimate may be under the exact count. */
const underLimit = 0.05;

// Each encoding is loaded once for the file: loading one takes about a second.
const tokenizers = [
  { profile: o200kProfile, encoding: get_encoding('o200k_base'), scripts: boundedScripts.o200k },
  { profile: cl100kProfile, encoding: get_encoding('cl100k_base'), scripts: boundedScripts.cl100k },
];

afterAll(() => {
  for (const { encoding } of tokenizers) encoding.free();
});

function exactCount(encoding: Tiktoken, text: string): number {
  return encoding.encode_ordinary(text).length;
}

describe.each(tokenizers)('the $profile.name profile against tiktoken', ({ profile, encoding, scripts }) => {
  // The bounds of the fitted features, which count text when no vocabulary does.
  const estimator = createTextEstimator({ profile, vocabulary: false });

  it.each(scripts)(
    `is never more than ${underLimit * 100}% under on natural prose of ${boundedProseLength} characters and more in %s`,
    (script) => {
      fc.assert(
        fc.property(scriptProse(script), (text) => {
          expect(estimator.countText(text)).toBeGreaterThanOrEqual(
            (1 - underLimit) * exactCount(encoding, text),
          );
        }),
        { numRuns: 30 },
      );
    },
  );

  it.each([
    ['emoji sequences', emojiText],
    ['symbols of the emoji blocks', emojiBlockSymbols],
    ['lists of short words and identifiers', shortWordLists],
  ] as const)(`is never more than ${underLimit * 100}% under on %s`, (_name, texts) => {
    fc.assert(
      fc.property(texts, (text) => {
        expect(estimator.countText(text)).toBeGreaterThanOrEqual(
          (1 - underLimit) * exactCount(encoding, text),
        );
      }),
      { numRuns: 50 },
    );
  });
});
