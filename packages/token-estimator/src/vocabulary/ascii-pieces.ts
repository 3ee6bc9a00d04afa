/**
 * The pre-tokenizer pieces of ASCII text, found without a regular expression: exactly the pieces that the
 * patterns of o200k_base and cl100k_base (as JavaScript expressions with the `u` flag) match, on any text of
 * code points 0 to 127, control characters included.
 *
 * Shape: one function per encoding, `(text, start) => end`, the end of the piece that starts at `start`; the
 * caller guarantees `text` is ASCII and `start < text.length`, and walks the text from one end to the next:
 *
 *     for (let start = 0, end; start < text.length; start = end) {
 *       end = o200kAsciiPieceEnd(text, start);
 *       // text[start..end) is one piece
 *     }
 *
 * The patterns leave no gap on ASCII text (every character starts some alternative), so each end is the next
 * start. Nothing is allocated: a character's class is one read of a 128-entry table.
 *
 * The one behaviour of the expressions that is not plain greedy scanning is their backtracking over
 * whitespace, which `whitespaceEnd` reproduces; the comments on each case name the alternative it stands for.
 */

export type AsciiPieceEncoding = 'o200k_base' | 'cl100k_base';

// Character classes, as bits so that a union of classes is one test.
const upper = 1; // \p{Lu}: A-Z
const lower = 2; // \p{Ll}: a-z
const digit = 4; // \p{N}: 0-9
const lineBreak = 8; // \r \n
const blank = 16; // the rest of JavaScript's \s in ASCII: \t \v \f and space
const other = 32; // [^\s\p{L}\p{N}]: punctuation and control characters (\x1c-\x1f are not \s in JavaScript)
const slash = 64; // also `other`: o200k_base's punctuation takes slashes after its line breaks
const letter = upper | lower;
const whitespace = lineBreak | blank;
/** [^\r\n\p{L}\p{N}], the optional character before a word. */
const wordPrefix = blank | other;

const space = 0x20;
const apostrophe = 0x27;

/** The class bits of each ASCII character (assembly/ascii-piece-counter.ts reads the same table). */
export const asciiClasses = new Uint8Array(128).fill(other);
const classes = asciiClasses;
for (let code = 0x41; code <= 0x5a; code++) classes[code] = upper;
for (let code = 0x61; code <= 0x7a; code++) classes[code] = lower;
for (let code = 0x30; code <= 0x39; code++) classes[code] = digit;
classes[0x0a] = lineBreak;
classes[0x0d] = lineBreak;
for (const code of [0x09, 0x0b, 0x0c, space]) classes[code] = blank;
classes[0x2f] = other | slash;

/** The class bits of the character at `index`, 0 past the end. */
function classAt(text: string, index: number): number {
  return index < text.length ? (classes[text.charCodeAt(index)] as number) : 0;
}

/**
 * The end of the piece of o200k_base's pattern that starts at `start`. o200k_base's words are
 * `[^\r\n\p{L}\p{N}]?` then `\p{Lu}*\p{Ll}+` or else `\p{Lu}+\p{Ll}*`, then a contraction or none: on ASCII
 * both alternatives come to the same greedy run, upper case then lower case ("HTTPServer" is one piece).
 */
export function o200kAsciiPieceEnd(text: string, start: number): number {
  // Each character is classed once: `kind` is the class of text[index].
  const firstKind = classes[text.charCodeAt(start)] as number;
  let index = start + 1;
  let kind = classAt(text, index);
  let wordKind = firstKind;
  if ((firstKind & letter) === 0) {
    if ((firstKind & wordPrefix) === 0 || (kind & letter) === 0) {
      return nonWordEnd(text, start, firstKind, kind, lineBreak | slash);
    }
    wordKind = kind;
    kind = classAt(text, ++index);
  }
  if (wordKind & upper) while (kind & upper) kind = classAt(text, ++index);
  while (kind & lower) kind = classAt(text, ++index);
  return kind & other ? contractionEnd(text, index) : index;
}

/**
 * The end of the piece of cl100k_base's pattern that starts at `start`. Its contractions are an alternative of
 * their own, tried first: "'the" is `'t` then `he`, and "don't" is `don` then `'t`.
 */
export function cl100kAsciiPieceEnd(text: string, start: number): number {
  const firstKind = classes[text.charCodeAt(start)] as number;
  let index = start + 1;
  let kind = classAt(text, index);
  // `[^\r\n\p{L}\p{N}]?\p{L}+`
  if ((firstKind & letter) === 0) {
    if ((firstKind & wordPrefix) === 0 || (kind & letter) === 0) {
      return nonWordEnd(text, start, firstKind, kind, lineBreak);
    }
    // Every contraction is an apostrophe and a letter.
    if (text.charCodeAt(start) === apostrophe) {
      const end = contractionEnd(text, start);
      if (end > start) return end;
    }
    kind = classAt(text, ++index);
  }
  while (kind & letter) kind = classAt(text, ++index);
  return index;
}

/** The end of the piece that starts at `start`, by the encoding's pattern; see the two functions above. */
export function asciiPieceEnd(text: string, start: number, encoding: AsciiPieceEncoding): number {
  return encoding === 'o200k_base' ? o200kAsciiPieceEnd(text, start) : cl100kAsciiPieceEnd(text, start);
}

/**
 * The end of a piece that is not a word: digits, punctuation or whitespace. `firstKind` and `nextKind` are the
 * classes of text[start] and text[start + 1]; `trailing` the classes the punctuation takes after it, `[\r\n/]*`
 * in o200k_base and `[\r\n]*` in cl100k_base.
 */
function nonWordEnd(
  text: string,
  start: number,
  firstKind: number,
  nextKind: number,
  trailing: number,
): number {
  let index = start + 1;
  // `\p{N}{1,3}`: runs of digits are cut every three.
  if (firstKind & digit) {
    if (nextKind & digit && classAt(text, ++index) & digit) index++;
    return index;
  }
  // ` ?[^\s\p{L}\p{N}]+` then the trailing characters
  if (firstKind & other || (nextKind & other && text.charCodeAt(start) === space)) {
    let kind = nextKind;
    while (kind & other) kind = classAt(text, ++index);
    while (kind & trailing) kind = classAt(text, ++index);
    return index;
  }
  return whitespaceEnd(text, start);
}

/**
 * The end of `'s|'t|'re|'ve|'m|'ll|'d` in any case at `index`, or `index` when there is none. The
 * alternatives of one letter and of two share no first letter, so their order does not matter.
 */
function contractionEnd(text: string, index: number): number {
  if (index + 1 >= text.length || text.charCodeAt(index) !== apostrophe) return index;
  // Setting bit 5 lower-cases an ASCII letter and maps no other character onto a lower-case letter.
  const first = text.charCodeAt(index + 1) | 0x20;
  // s t m d
  if (first === 0x73 || first === 0x74 || first === 0x6d || first === 0x64) return index + 2;
  if (index + 2 >= text.length) return index;
  const second = text.charCodeAt(index + 2) | 0x20;
  // re ve ll
  if (((first === 0x72 || first === 0x76) && second === 0x65) || (first === 0x6c && second === 0x6c)) {
    return index + 3;
  }
  return index;
}

/**
 * Whitespace that no word or punctuation piece took (a blank before a letter, a space before punctuation):
 * - `\s*[\r\n]+`: `\s*` takes the whole run, then gives back until `[\r\n]+` matches, so the piece ends just
 *   after the run's last line break ("\n  \n  x" is "\n  \n" then " " then " x");
 * - `\s+(?!\S)`, when the run has no line break: the whole run at the end of the text, else the run less its
 *   last character, which then starts the next piece (" x" as a word, or a lone blank);
 * - `\s+`: a single whitespace character before a non-whitespace one.
 */
function whitespaceEnd(text: string, start: number): number {
  let index = start;
  let lastLineBreak = -1;
  for (let kind = classAt(text, index); kind & whitespace; kind = classAt(text, ++index)) {
    if (kind & lineBreak) lastLineBreak = index;
  }
  if (lastLineBreak >= 0) return lastLineBreak + 1;
  if (index === text.length || index === start + 1) return index;
  return index - 1;
}
