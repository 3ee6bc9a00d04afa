import { measureWithScanner } from './text-scanner.js';

/**
 * The classes of text the fast estimator counts, in a fixed order. Each is a count that real BPE tokenizers
 * (o200k, cl100k, Claude's) turn into tokens at a roughly constant rate, so a token count is well
 * approximated by a weighted sum of them:
 *
 * - `letterPieces`: runs of ASCII letters, split where a tokenizer's pre-tokenizer splits them (a lowercase
 *   letter followed by an uppercase one, a letter next to a digit), so `getUserName` is three pieces;
 * - `attachedPieces`, `attachedLetters`: pieces right after punctuation and their letters (`-thai` in a URL
 *   slug), which tokenizers split more finely than words after a space;
 * - `letters`: the letters in those pieces; `longPieceLetters`: letters beyond the eighth of a piece,
 *   since long rare words and identifiers break into several tokens;
 * - `digitGroups`: digits in groups of up to three, as o200k and cl100k split numbers; `spacedNumbers`:
 *   numbers right after whitespace, since a number never absorbs the space before it (a word does);
 * - `punctuation`: ASCII punctuation characters; `punctuationRuns`: runs of them;
 * - `lineBreaks`: whitespace runs that contain a line feed; `spaceRuns`: runs of spaces and tabs other
 *   than a single space (which joins the next token), including indentation after a line feed;
 * - `nonAsciiLetters`: letters of other alphabets (accented Latin, Greek, Cyrillic, Hebrew, Arabic, Indic
 *   scripts...), which also count in `letterPieces` and `letters`;
 * - `cjk`: Chinese, Japanese and Korean characters and full-width forms; `otherNonAscii`: any other
 *   non-ASCII UTF-16 unit outside surrogates (symbols, arrows, box drawing); `surrogates`: surrogate units
 *   (emoji and other astral characters, lone surrogates included);
 * - `base64`: characters of long alphanumeric runs that look random (base64 and similar blobs);
 *   `hex`: characters of long hexadecimal runs (hashes, ids).
 */
export const textFeatureNames = [
  'letterPieces',
  'attachedPieces',
  'attachedLetters',
  'letters',
  'longPieceLetters',
  'digitGroups',
  'spacedNumbers',
  'punctuation',
  'punctuationRuns',
  'lineBreaks',
  'spaceRuns',
  'nonAsciiLetters',
  'cjk',
  'otherNonAscii',
  'surrogates',
  'base64',
  'hex',
] as const;

/** One class of text counted by {@link measureText}. */
export type TextFeature = (typeof textFeatureNames)[number];

/** Tokens per unit of each {@link TextFeature}. */
export type TextFeatureWeights = Record<TextFeature, number>;

/** Number of {@link textFeatureNames}. */
export const textFeatureCount = textFeatureNames.length;

// Character classes of UTF-16 code units.
const lower = 1;
const upper = 2;
/** A letter of another alphabet: part of words, without case splits. */
const otherLetter = 3;
const digit = 4;
const space = 5;
const newline = 6;
const otherWhitespace = 7;
const punctuation = 8;
const cjkCharacter = 9;
const surrogate = 10;
const symbol = 11;
/** Past the end of the text. */
const end = 12;

/** The class of every UTF-16 code unit (64 KB): one array read per character. */
function buildClassTable(): Uint8Array {
  const table = new Uint8Array(0x10000).fill(symbol);
  table.fill(punctuation, 33, 127);
  table.fill(otherWhitespace, 0, 32);
  table[127] = otherWhitespace;
  table.fill(lower, 97, 123);
  table.fill(upper, 65, 91);
  table.fill(digit, 48, 58);
  table[32] = space;
  table[0xa0] = space;
  table[10] = newline;
  // Latin-1 letters, Latin Extended, Greek, Cyrillic, Armenian, Hebrew, Arabic, Indic and other alphabets.
  table.fill(otherLetter, 0xc0, 0x2b0);
  table.fill(otherLetter, 0x370, 0x2000);
  table[0xd7] = symbol;
  table[0xf7] = symbol;
  // CJK punctuation, kana, ideographs, Hangul syllables, compatibility ideographs, full-width forms.
  table.fill(cjkCharacter, 0x3000, 0xa000);
  table.fill(cjkCharacter, 0xac00, 0xd7b0);
  table.fill(cjkCharacter, 0xf900, 0xfb00);
  table.fill(cjkCharacter, 0xff00, 0xfff0);
  table.fill(surrogate, 0xd800, 0xe000);
  return table;
}

// A module constant rather than built on first use: the optimizing compiler then treats the table as fixed
// instead of re-checking it at every character, which measured about 7% fewer instructions per character.
export const classTable = buildClassTable();

/** Runs at least this long are tested for being a blob rather than words. */
const blobMinimumLength = 16;
const hexMinimumLength = 8;
/** Letters of a piece before the extra ones count in `longPieceLetters`. */
const longPieceLength = 8;

/** Texts shorter than this are measured in JavaScript: copying them into WebAssembly costs more than it saves. */
const scannerMinimumLength = 128;

/**
 * Counts the {@link TextFeature}s of a text in one pass over its UTF-16 units, writing them into `into`
 * (in the order of {@link textFeatureNames}) and returning it. Never throws: any string, lone surrogates
 * and special-token strings such as `<|endoftext|>` included, is ordinary text.
 *
 * Longer texts are scanned by a small embedded WebAssembly module where the runtime allows it (Node.js,
 * Bun); elsewhere, and when WebAssembly cannot be compiled (as on runtimes that forbid code generation), by
 * the same scanner in JavaScript. Both count the same features on every string.
 */
export function measureText(
  text: string,
  into: Float64Array = new Float64Array(textFeatureCount),
): Float64Array {
  if (text.length >= scannerMinimumLength && measureWithScanner(text, into, classTable)) return into;
  return measureTextInJavaScript(text, into);
}

/** {@link measureText} in JavaScript: the reference the WebAssembly scanner is held to, and its fallback. */
export function measureTextInJavaScript(
  text: string,
  into: Float64Array = new Float64Array(textFeatureCount),
): Float64Array {
  const table = classTable;
  let letterPieces = 0;
  let attachedPieces = 0;
  let attachedLetters = 0;
  let letters = 0;
  let longPieceLetters = 0;
  let digitGroups = 0;
  let spacedNumbers = 0;
  let punctuationCount = 0;
  let punctuationRuns = 0;
  let lineBreaks = 0;
  let spaceRuns = 0;
  let nonAsciiLetters = 0;
  let cjk = 0;
  let otherNonAscii = 0;
  let surrogates = 0;
  let base64 = 0;
  let hex = 0;
  // The class of the run before the current one: a word right after punctuation is "attached".
  let before = 0;

  const length = text.length;
  let index = 0;
  // The class of the unit at `index`, read once per unit; `end` past the last one.
  let kind = length > 0 ? table[text.charCodeAt(0)]! : end;
  // Each iteration consumes one run of a class, in tight inner loops.
  while (index < length) {
    if (kind <= digit) {
      // A word run: letter pieces (uppercase* then lowercase*) and digit groups.
      const start = index;
      let pieces = 0;
      let groups = 0;
      let digits = 0;
      let digitRuns = 0;
      let otherLetters = 0;
      let longLetters = 0;
      let firstPieceLetters = 0;
      for (;;) {
        if (kind === digit) {
          const digitStart = index;
          do {
            index++;
            kind = index < length ? table[text.charCodeAt(index)]! : end;
          } while (kind === digit);
          const run = index - digitStart;
          digits += run;
          digitRuns++;
          groups += ((run + 2) / 3) | 0;
        } else if (kind <= otherLetter) {
          const pieceStart = index;
          while (kind === upper) {
            index++;
            kind = index < length ? table[text.charCodeAt(index)]! : end;
          }
          // Lowercase letters in their own tight loop; a letter of another alphabet continues the piece.
          for (;;) {
            while (kind === lower) {
              index++;
              kind = index < length ? table[text.charCodeAt(index)]! : end;
            }
            if (kind !== otherLetter) break;
            otherLetters++;
            index++;
            kind = index < length ? table[text.charCodeAt(index)]! : end;
          }
          const piece = index - pieceStart;
          if (pieceStart === start) firstPieceLetters = piece;
          if (piece > longPieceLength) longLetters += piece - longPieceLength;
          pieces++;
        } else break;
      }
      const runLength = index - start;
      const runLetters = runLength - digits;
      if (
        digits > 0 &&
        runLetters > 0 &&
        otherLetters === 0 &&
        runLength >= hexMinimumLength &&
        isHex(text, start, index)
      ) {
        hex += runLength;
      } else if (
        digits > 0 &&
        runLetters > 0 &&
        // A stray accented letter at the edge of a blob (text glued to it) must not turn the blob into words.
        otherLetters * 8 <= runLength &&
        runLength >= blobMinimumLength &&
        // Random text switches between lowercase, uppercase and digits about every other character.
        (pieces + digitRuns) * 4 > runLength
      ) {
        base64 += runLength;
      } else {
        letterPieces += pieces;
        letters += runLetters;
        longPieceLetters += longLetters;
        digitGroups += groups;
        nonAsciiLetters += otherLetters;
        if (before === punctuation && firstPieceLetters > 0) {
          attachedPieces++;
          attachedLetters += firstPieceLetters;
        }
      }
      before = digit;
      continue;
    }

    if (kind === space) {
      // The most common run by far: one space before a word or punctuation (it joins the next token, so it
      // counts for nothing of its own). Handled without the general whitespace loop.
      const next = index + 1 < length ? table[text.charCodeAt(index + 1)]! : end;
      if (next < space || next > otherWhitespace) {
        index++;
        kind = next;
        if (kind === digit) spacedNumbers++;
        before = space;
        continue;
      }
    }

    if (kind <= otherWhitespace) {
      // A whitespace run. What follows its last line feed is indentation, counted as a run of its own.
      let lineBreak = false;
      let trailing = 0;
      let trailingIsSpace = true;
      do {
        if (kind === newline) {
          lineBreak = true;
          trailing = 0;
          trailingIsSpace = true;
        } else {
          trailing++;
          if (kind === otherWhitespace) trailingIsSpace = false;
        }
        index++;
        kind = index < length ? table[text.charCodeAt(index)]! : end;
      } while (kind >= space && kind <= otherWhitespace);
      if (lineBreak) lineBreaks++;
      if (trailing > 1 || (trailing === 1 && !trailingIsSpace)) spaceRuns++;
      if (kind === digit) spacedNumbers++;
      before = space;
      continue;
    }

    if (kind === punctuation) {
      const start = index;
      do {
        index++;
        kind = index < length ? table[text.charCodeAt(index)]! : end;
      } while (kind === punctuation);
      punctuationCount += index - start;
      punctuationRuns++;
      before = punctuation;
      continue;
    }

    if (kind === cjkCharacter) cjk++;
    else if (kind === surrogate) surrogates++;
    else otherNonAscii++;
    before = kind;
    index++;
    kind = index < length ? table[text.charCodeAt(index)]! : end;
  }

  into[0] = letterPieces;
  into[1] = attachedPieces;
  into[2] = attachedLetters;
  into[3] = letters;
  into[4] = longPieceLetters;
  into[5] = digitGroups;
  into[6] = spacedNumbers;
  into[7] = punctuationCount;
  into[8] = punctuationRuns;
  into[9] = lineBreaks;
  into[10] = spaceRuns;
  into[11] = nonAsciiLetters;
  into[12] = cjk;
  into[13] = otherNonAscii;
  into[14] = surrogates;
  into[15] = base64;
  into[16] = hex;
  return into;
}

/** Whether every unit of `text` in [start, end) is a hexadecimal digit of one case. */
function isHex(text: string, start: number, end: number): boolean {
  let sawLower = false;
  let sawUpper = false;
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) continue;
    if (code >= 97 && code <= 102) sawLower = true;
    else if (code >= 65 && code <= 70) sawUpper = true;
    else return false;
  }
  return !(sawLower && sawUpper);
}
