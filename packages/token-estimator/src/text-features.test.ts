import { describe, expect, it } from 'vitest';
import { measureText, type TextFeature, textFeatureNames } from './text-features.js';

function features(text: string): Record<TextFeature, number> {
  const measured = measureText(text);
  return Object.fromEntries(textFeatureNames.map((name, index) => [name, measured[index]])) as Record<
    TextFeature,
    number
  >;
}

describe('measureText', () => {
  it('splits identifiers where tokenizers split them', () => {
    expect(features('getUserName').letterPieces).toBe(3);
    expect(features('HTTPServer').letterPieces).toBe(1);
    expect(features('user_name_id').letterPieces).toBe(3);
    expect(features('user_name_id').attachedPieces).toBe(2);
    expect(features('the quick fox').letters).toBe(11);
    expect(features('getUserName').capitals).toBe(2);
    expect(features('HTTPServer').capitals).toBe(5);
  });

  it('groups digits by three and notices numbers after whitespace', () => {
    expect(features('1234567').digitGroups).toBe(3);
    expect(features('v2 and 10').digitGroups).toBe(2);
    expect(features('v2 and 10').spacedNumbers).toBe(1);
  });

  it('counts punctuation, line breaks and indentation', () => {
    const measured = features('if (a) {\n    return b;\n}\n\n');
    expect(measured.punctuation).toBe(5);
    expect(measured.punctuationRuns).toBe(5);
    expect(measured.lineBreaks).toBe(3);
    expect(measured.spaceRuns).toBe(1);
    expect(features('a b').spaceRuns).toBe(0);
    expect(features('a  b\tc').spaceRuns).toBe(2);
  });

  it('counts rare letter pairs inside pieces: many in random text, none in words', () => {
    expect(features('the quick brown fox jumps over the lazy dog').rareLetterPairs).toBe(0);
    expect(features('getUserNameFromTheDatabase').rareLetterPairs).toBe(0);
    // base64 of `foobarbazqux1234567890abcdefghijklmnop`.
    expect(features('Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3A').rareLetterPairs).toBe(8);
    // Case is ignored; a piece boundary, a digit or a letter of another alphabet separates the pair.
    expect(['xq', 'XQ', 'Xq', 'xQ', 'x1q', 'xéq'].map((text) => features(text).rareLetterPairs)).toEqual([
      1, 1, 1, 0, 0, 0,
    ]);
  });

  it('classifies non-ASCII text', () => {
    expect(features('上下文窗口').cjk).toBe(5);
    expect(features('ありがとう').cjk).toBe(5);
    expect(features('Привет мир').nonAsciiLetters).toBe(9);
    expect(features('Привет мир').letterPieces).toBe(2);
    expect(features('café').letterPieces).toBe(1);
    expect(features('😀👍').surrogates).toBe(4);
    expect(features('a → b ✓').otherNonAscii).toBe(2);
  });

  it('treats lone surrogates and special-token strings as text', () => {
    expect(features('\ud800x\udfff').surrogates).toBe(2);
    const special = features('<|endoftext|>');
    expect(special.letterPieces).toBe(1);
    expect(special.punctuation).toBe(4);
  });

  it('writes into the given buffer', () => {
    const buffer = new Float64Array(textFeatureNames.length).fill(99);
    expect(measureText('', buffer)).toBe(buffer);
    expect([...buffer].every((value) => value === 0)).toBe(true);
  });
});
