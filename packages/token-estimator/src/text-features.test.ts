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
    // `_name` and `_id` are joined pieces; `-name` splits further, as a word after punctuation.
    expect(features('user_name_id').letterPieces).toBe(1);
    expect(features('user_name_id').joinedPieces).toBe(2);
    expect(features('user-name').attachedPieces).toBe(1);
    expect(features('the quick fox').letters).toBe(11);
    // A capital that starts a capitalised word is not one of the capitals that split.
    expect(features('getUserName').titleCapitals).toBe(2);
    expect(features('getUserName').capitals).toBe(0);
    expect(features('HTTPServer').capitals).toBe(5);
    expect(features('Haus HAUS').capitals).toBe(4);
  });

  it('groups digits by three and notices numbers after whitespace', () => {
    expect(features('1234567').digitGroups).toBe(3);
    expect(features('v2 and 10').digitGroups).toBe(2);
    expect(features('v2 and 10').spacedNumbers).toBe(1);
    // A lone space ending the text stands alone as well; a line feed, or longer whitespace, counts as its own.
    expect(features('and ').spacedNumbers).toBe(1);
    expect(features('and\n10').spacedNumbers).toBe(0);
    expect(features('and   10').spacedNumbers).toBe(0);
    expect(features('and   10').spaceRuns).toBe(1);
    expect(features('v2 and 10').lettersThenDigits).toBe(1);
    expect(features('Zm9vYmFy 2024-01-05').lettersThenDigits).toBe(1);
  });

  it('counts punctuation, line breaks and indentation', () => {
    const measured = features('if (a) {\n    return b;\n}\n\n');
    expect(measured.punctuation).toBe(5);
    expect(measured.punctuationRuns).toBe(5);
    // Every line feed here follows punctuation, which the pre-tokenizers join it to (`{\n`, `;\n`).
    expect(measured.joinedLineBreaks).toBe(3);
    expect(measured.lineBreaks).toBe(0);
    expect(features('a\nb; \nc').lineBreaks).toBe(2);
    expect(measured.spaceRuns).toBe(1);
    expect(features('a b').spaceRuns).toBe(0);
    // A single tab joins the word after it, as a single space does; before punctuation it stands alone.
    expect(features('a  b\tc').spaceRuns).toBe(1);
    expect(features('a\t(b').spaceRuns).toBe(1);
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
    const cases: [string, TextFeature, number][] = [
      ['上下文窗口', 'cjk', 5],
      ['ありがとう', 'cjk', 5],
      ['Привет мир', 'cyrillicLetters', 9],
      ['Ελλάδα', 'cyrillicLetters', 6],
      ['café', 'accentedLetters', 1],
      ['مرحبا', 'arabicLetters', 5],
      ['नमस्ते', 'indicLetters', 6],
      ['Привет мир', 'letterPieces', 2],
      ['café', 'letterPieces', 1],
      ['😀👍', 'surrogates', 4],
      ['a → b ─ c', 'otherNonAscii', 2],
    ];
    expect(cases.map(([text, feature]) => features(text)[feature])).toEqual(
      cases.map(([, , count]) => count),
    );
  });

  it('counts a symbol of the emoji blocks as the two surrogates of an astral emoji', () => {
    // One UTF-16 unit each, yet up to 3 tokens alone in o200k and cl100k, as much as `😀` (two units).
    const symbols = features('✅ ❤️ ⭐ ⏰ ☀ 1️⃣');
    // The variation selector U+FE0F (twice) costs a token at most, as other symbols do.
    expect([symbols.surrogates, symbols.otherNonAscii]).toEqual([12, 2]);
    expect(features('→ ─ “”').surrogates).toBe(0);
  });

  it('counts Greek letters and the scripts from Bengali on again, apart from Cyrillic and Devanagari', () => {
    const greek = features('Ωμέγα Привет');
    expect([greek.cyrillicLetters, greek.greekLetters]).toEqual([11, 5]);
    // Bengali and Georgian count in both; Devanagari and Thai only as Indic letters.
    const indic = features('বাংলা ქართული नमस्ते สวัสดี');
    expect([indic.indicLetters, indic.sparseScriptLetters]).toEqual([5 + 7 + 6 + 6, 5 + 7]);
  });

  it('counts Armenian with the sparse scripts, not with Cyrillic', () => {
    // cl100k spends two tokens on an Armenian letter, as on a Georgian one; on a Cyrillic one far fewer.
    const armenian = features('Բարեւ աշխարհ');
    expect([armenian.cyrillicLetters, armenian.indicLetters, armenian.sparseScriptLetters]).toEqual([
      0, 11, 11,
    ]);
  });

  it('reads Hangul syllables as letters of words and CJK characters by how o200k holds them', () => {
    // Korean joins into words, as alphabets do: one piece per word, not one count per syllable.
    const korean = features('안녕하세요 사용자');
    expect([korean.hangulLetters, korean.letterPieces, korean.cjk]).toEqual([8, 2, 0]);
    // Common Chinese characters merge into longer entries; these two are entries alone; this one is none.
    expect([features('上下文').loneCjk, features('上下文').rareCjk]).toEqual([0, 0]);
    expect([features('驗證').cjk, features('驗證').loneCjk]).toEqual([2, 2]);
    expect([features('檔').cjk, features('檔').rareCjk]).toEqual([1, 1]);
  });

  it('tells punctuation joined to the word after it from punctuation standing alone', () => {
    // `.push` and `(x` are one token each as a rule; after a space, in a run of two, or after characters that
    // begin few entries (`/`, `:`), the word is a token of its own.
    const joined = ['a.push(x)', 'cd .path', 'a?.push', 'a/path:b'].map(
      (text) => features(text).joinedPieces,
    );
    expect(joined).toEqual([2, 0, 0, 0]);
    // Every punctuation run counts, joined or not.
    expect(features('a.push(x)').punctuationRuns).toBe(3);
    expect(features('a/path:b').attachedPieces).toBe(2);
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
