import fc from 'fast-check';
import { textArbitrary } from '../conversation-arbitrary.js';

const leadingWords = ['Check', 'The', 'Now', 'Run', 'Fix', 'Result:', 'Output', 'Next', 'Done.', 'Reading'];

/** Prose that is never blank (the Messages API refuses whitespace-only text). */
export function proseArbitrary(maxWords = 16): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...leadingWords), textArbitrary(maxWords))
    .map(([first, rest]) => `${first} ${rest}`);
}

/**
 * A tool result text from a few characters to `maxLength`: mostly short, sometimes kilobytes, now and then
 * near `maxLength`. Long texts repeat a generated passage, which is fast to make at any size.
 */
export function resultTextArbitrary(maxLength: number): fc.Arbitrary<string> {
  const sized = (min: number, max: number) =>
    fc
      .tuple(proseArbitrary(40), fc.integer({ min: Math.min(min, max), max }))
      .map(([passage, length]) => repeatTo(passage, length));
  return fc.oneof(
    { weight: 6, arbitrary: proseArbitrary(12).map((text) => text.slice(0, maxLength)) },
    { weight: 3, arbitrary: sized(200, Math.min(4_000, maxLength)) },
    { weight: 1, arbitrary: sized(Math.floor(maxLength / 4), maxLength) },
  );
}

function repeatTo(passage: string, length: number): string {
  const unit = `${passage}\n`;
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, Math.max(1, length));
}

/** True about one time in `oneIn`. */
export function sometimes(oneIn: number): fc.Arbitrary<boolean> {
  return fc.integer({ min: 1, max: oneIn }).map((value) => value === 1);
}

/** `value`'s values about one time in `oneIn`, `null` otherwise. */
export function occasionally<Value>(value: fc.Arbitrary<Value>, oneIn: number): fc.Arbitrary<Value | null> {
  return fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: value });
}

/** `'none'` three times in `3 + weight`, otherwise one of `kinds` (attachments, which most messages lack). */
export function noneOrOneOf<Kind extends string>(
  kinds: readonly Kind[],
  weight = 1,
): fc.Arbitrary<Kind | 'none'> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant('none' as const) },
    { weight, arbitrary: fc.constantFrom(...kinds) },
  );
}
