import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { anthropicProfile, cl100kProfile, o200kProfile } from './estimator-profiles.js';
import { createFastEstimator } from './fast-estimator.js';
import { defaultMessageOverhead } from './message-estimator.js';
import { TokenCounter } from './token-counter.js';

const estimator = createFastEstimator();

/** Any string: arbitrary UTF-16 units (lone surrogates included), graphemes, and tokenizer-relevant pieces. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc
    .array(
      fc.constantFrom(
        'word',
        'getUserName',
        ' ',
        '\n',
        '    ',
        '12345',
        '{"a":1}',
        '<|endoftext|>',
        '<|im_start|>',
        '上下文',
        'Привет',
        '😀',
        '\ud800',
        '\udfff',
        'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5',
        'deadbeef42',
      ),
      { maxLength: 60 },
    )
    .map((pieces) => pieces.join('')),
);

describe('createFastEstimator', () => {
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

  it('is monotone under concatenation, within a tolerance for runs that merge at the seam', () => {
    // Joining two texts can merge the runs that meet at the seam (two words become one), and a merged run
    // can cross the threshold between "words" and "random blob" (`AAAAAA` + `abc123DEF456ghi789`), so the
    // whole may count less than the larger part: by at most 25% plus 3 tokens (the worst seen over 300,000
    // random pairs was 21%). It may count more than the sum of the parts when a word joins a base64 blob
    // and is counted at the blob's rate: that errs safe.
    fc.assert(
      fc.property(anyText, anyText, (left, right) => {
        const whole = estimator.countText(left + right);
        const larger = Math.max(estimator.countText(left), estimator.countText(right));
        expect(whole).toBeGreaterThanOrEqual(Math.floor(larger * 0.75) - 3);
        expect(whole).toBeLessThanOrEqual(
          Math.ceil((estimator.countText(left) + estimator.countText(right)) * 1.5) + 3,
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps counting a blob as a blob when a letter of another alphabet is glued to it', () => {
    const blob = 'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5wordword';
    expect(estimator.countText(`${blob}À`)).toBeGreaterThanOrEqual(estimator.countText(blob));
  });

  it('counts dense content far above characters / 4', () => {
    const json = JSON.stringify({ id: 123456, ok: true, items: [1, 2, 3], path: '/a/b' });
    expect(estimator.countText(json)).toBeGreaterThan(json.length / 4);
    const chinese = '压缩对话历史以保持在上下文窗口之内';
    expect(estimator.countText(chinese)).toBeGreaterThan(chinese.length / 2);
    expect(estimator.countText('<|endoftext|>')).toBeGreaterThan(1);
  });

  it('applies the safety factor and the profile', () => {
    const text = 'The agent reads the file, runs the tests and reports 3 failures.\n'.repeat(20);
    const plain = createFastEstimator({ safetyFactor: 1 }).countText(text);
    const doubled = createFastEstimator({ safetyFactor: 2 }).countText(text);
    expect(doubled).toBeGreaterThanOrEqual(2 * plain - 1);
    expect(doubled).toBeLessThanOrEqual(2 * plain + 1);
    expect(o200kProfile.safetyFactor).toBeGreaterThanOrEqual(1);
    const anthropic = createFastEstimator({ profile: anthropicProfile });
    const cl100k = createFastEstimator({ profile: cl100kProfile });
    expect(anthropic.name).toBe('fast:anthropic');
    // The Anthropic profile is the conservative one: never below the OpenAI profiles.
    fc.assert(
      fc.property(anyText, (sample) => {
        expect(anthropic.countText(sample)).toBeGreaterThanOrEqual(estimator.countText(sample));
        expect(anthropic.countText(sample)).toBeGreaterThanOrEqual(cl100k.countText(sample));
      }),
      { numRuns: 500 },
    );
  });

  it('counts messages with the message overhead', () => {
    const text = 'Run the tests.';
    expect(estimator.countMessage({ role: 'user', content: [{ type: 'text', text }] })).toBe(
      defaultMessageOverhead.message + defaultMessageOverhead.part + estimator.countText(text),
    );
    const custom = createFastEstimator({ overhead: { message: 10 } });
    expect(custom.countMessage({ role: 'user', content: [] })).toBe(10);
  });

  it('is the default estimator of the token counter', () => {
    expect(new TokenCounter().estimator.name).toBe('fast:o200k');
  });

  it('rejects a bad safety factor or weight with a typed error', () => {
    expect(() => createFastEstimator({ safetyFactor: 0 })).toThrow(InvalidOptionsError);
    expect(() =>
      createFastEstimator({
        profile: { ...o200kProfile, weights: { ...o200kProfile.weights, cjk: Number.NaN } },
      }),
    ).toThrow(/profile\.weights\.cjk/);
  });
});
