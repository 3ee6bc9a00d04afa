import fc from 'fast-check';
import { get_encoding } from 'tiktoken';
import { afterAll, describe, expect, it } from 'vitest';
import {
  dataClasses,
  guaranteedLength,
  mixedClasses,
  naturalClasses,
} from './__fixtures__/guarantee-texts.js';
import { cl100kProfile, o200kProfile } from './estimator-profiles.js';
import { createTextEstimator } from './text-estimator.js';

/**
 * The estimator's guarantee (as it counts by default, through the vocabulary), checked against the tokenizer each
 * profile estimates: on any text of {@link guaranteedLength} characters and more, never more than 5% under the exact count, whatever its script
 * or encoding; on natural prose in any language, never more than 15% over either.
 */
const underLimit = 0.05;
const overLimit = 0.15;

// Texts per class and encoding: a class that fails on one text in twenty fails 95% of the runs, and the file
// takes about 13 seconds of processor time (most of it in tiktoken), 20 to 30 on a busy two-core machine. The
// counts do not depend on the Node version, so the compatibility run on Node 22 (scripts/test-node-22.sh) only
// shows, with a few texts, that the file runs there.
const numRuns = process.env.COMPACTION_COMPATIBILITY_RUN === undefined ? 60 : 3;

// Each encoding is loaded once for the file: loading one takes about a second.
const tokenizers = [
  { profile: o200kProfile, encodingName: 'o200k_base', encoding: get_encoding('o200k_base') },
  { profile: cl100kProfile, encodingName: 'cl100k_base', encoding: get_encoding('cl100k_base') },
];

afterAll(() => {
  for (const { encoding } of tokenizers) encoding.free();
});

type Bounds = 'under and over' | 'under only';

const classesOf = (arbitraries: Record<string, fc.Arbitrary<string>>, bounds: Bounds) =>
  Object.entries(arbitraries).map(([className, texts]) => ({ className, texts, bounds }));

const classes = [
  ...classesOf(naturalClasses, 'under and over'),
  ...classesOf(dataClasses, 'under only'),
  ...classesOf(mixedClasses, 'under only'),
];

describe.each(tokenizers)(
  'the $profile.name profile against tiktoken $encodingName',
  ({ profile, encodingName, encoding }) => {
    const estimator = createTextEstimator({ profile });

    it.each(classes)('keeps its guarantee on $className ($bounds)', ({ className, texts, bounds }) => {
      fc.assert(
        // Without shrinking: a shrunk text repeats one word or one digit, which is no longer a text of its class
        // (`我们我们我们…`, `0000…`) and tokenizes otherwise; the counterexample is the text as it was drawn.
        fc.property(fc.noShrink(texts), (text) => {
          const exact = encoding.encode_ordinary(text).length;
          const estimate = estimator.countText(text);
          // Everything a reader needs to judge the failure without running it again.
          const report =
            `${className}, ${encodingName}: estimate ${estimate} for ${exact} exact tokens ` +
            `(ratio ${(estimate / exact).toFixed(3)}) on ${text.length} characters`;
          expect(text.length, report).toBeGreaterThanOrEqual(guaranteedLength);
          expect(estimate, `${report}, more than ${underLimit * 100}% under`).toBeGreaterThanOrEqual(
            (1 - underLimit) * exact,
          );
          if (bounds === 'under and over') {
            expect(estimate, `${report}, more than ${overLimit * 100}% over`).toBeLessThanOrEqual(
              (1 + overLimit) * exact,
            );
          }
        }),
        { numRuns },
      );
    });
  },
);
