/**
 * The WebAssembly build of `measureText` (src/text-features.ts), written in AssemblyScript. It counts
 * exactly the same features with exactly the same rules, one branch for one branch, so the two give the same
 * numbers on every string (a property test holds them to it); the JavaScript version stays the reference and
 * the fallback. Compiled by `pnpm --filter @compaction/token-estimator build:scanner` into src/text-scanner-binary.ts.
 *
 * Memory (imported, laid out by src/text-scanner.ts): the class of every UTF-16 unit at 0 (64 KB, and
 * one more byte for `pastEnd`), the table of rare letter pairs at `pairsAt` (1 KB), the counts written at
 * `countsAt`, the text's UTF-16 units from `textAt`.
 */

// Character classes, the same numbers as in text-features.ts.
const upper: u32 = 2;
const otherLetter: u32 = 3;
const digit: u32 = 4;
const space: u32 = 5;
const newline: u32 = 6;
const otherWhitespace: u32 = 7;
const punctuation: u32 = 8;
const cjkCharacter: u32 = 9;
const surrogate: u32 = 10;
const rareCjkCharacter: u32 = 12;
const loneCjkCharacter: u32 = 13;
const pastEnd: u32 = 0x10000;

const pairsAt: usize = 66560;
const countsAt: usize = 67584;
const textAt: usize = 131072;

/** The unit at `index`, `pastEnd` past the last one. */
function codeAt(index: i32, length: i32): u32 {
  return index < length ? <u32>load<u16>(textAt + ((<usize>index) << 1)) : pastEnd;
}

/** The class of a unit (of `pastEnd`: `end`). */
function classOf(code: u32): u32 {
  return <u32>load<u8>(<usize>code);
}

/** 1 when the ASCII letter `code` after the letter whose low five bits are `previous` is a rare pair. */
function rarePair(previous: u32, code: u32): i32 {
  return <i32>load<u8>(pairsAt + <usize>((previous << 5) | (code & 31)));
}

/** Counts the features of the `length` units at `textAt` and writes them, in order, at `countsAt`. */
export function measure(length: i32): void {
  let letterPieces: i32 = 0;
  let attachedPieces: i32 = 0;
  let letters: i32 = 0;
  let capitals: i32 = 0;
  let rareLetterPairs: i32 = 0;
  let digitGroups: i32 = 0;
  let spacedNumbers: i32 = 0;
  let punctuationCount: i32 = 0;
  let punctuationRuns: i32 = 0;
  let joinedPunctuation: i32 = 0;
  let lineBreaks: i32 = 0;
  let spaceRuns: i32 = 0;
  let accentedLetters: i32 = 0;
  let cyrillicLetters: i32 = 0;
  let arabicLetters: i32 = 0;
  let indicLetters: i32 = 0;
  let hangulLetters: i32 = 0;
  let cjk: i32 = 0;
  let loneCjk: i32 = 0;
  let rareCjk: i32 = 0;
  let otherNonAscii: i32 = 0;
  let surrogates: i32 = 0;
  let before: u32 = 0;
  let index: i32 = 0;
  let code = codeAt(0, length);
  let kind = classOf(code);
  while (index < length) {
    if (kind <= digit) {
      const start = index;
      while (true) {
        if (kind === digit) {
          const digitStart = index;
          do {
            index++;
            code = codeAt(index, length);
            kind = classOf(code);
          } while (kind === digit);
          digitGroups += (index - digitStart + 2) / 3;
        } else if (kind <= otherLetter) {
          const pieceStart = index;
          let previous: u32 = 0;
          while (kind === upper) {
            rareLetterPairs += rarePair(previous, code);
            previous = code & 31;
            index++;
            code = codeAt(index, length);
            kind = classOf(code);
          }
          capitals += index - pieceStart;
          while (true) {
            // Lowercase ASCII letters tested by range (one unsigned comparison), without reading their class.
            while (code - 97 < 26) {
              rareLetterPairs += rarePair(previous, code);
              previous = code & 31;
              index++;
              code = codeAt(index, length);
            }
            kind = classOf(code);
            if (kind !== otherLetter) break;
            if (code < 0x370) accentedLetters++;
            else if (code < 0x590) cyrillicLetters++;
            else if (code < 0x900) arabicLetters++;
            else if (code < 0xac00) indicLetters++;
            else hangulLetters++;
            previous = 0;
            index++;
            code = codeAt(index, length);
            kind = classOf(code);
          }
          if (pieceStart === start && before === punctuation) attachedPieces++;
          letters += index - pieceStart;
          letterPieces++;
        } else break;
      }
      before = digit;
      continue;
    }

    if (kind === space) {
      code = codeAt(index + 1, length);
      const next = classOf(code);
      if (next < space || next > otherWhitespace) {
        index++;
        kind = next;
        if (kind === digit) spacedNumbers++;
        before = space;
        continue;
      }
    }

    if (kind <= otherWhitespace) {
      let lineBreak = false;
      let trailing: i32 = 0;
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
        code = codeAt(index, length);
        kind = classOf(code);
      } while (kind >= space && kind <= otherWhitespace);
      if (lineBreak) lineBreaks++;
      if (trailing > 1 || (trailing === 1 && !trailingIsSpace && kind > otherLetter)) spaceRuns++;
      if (kind === digit) spacedNumbers++;
      before = space;
      continue;
    }

    if (kind === punctuation) {
      const start = index;
      do {
        index++;
        code = codeAt(index, length);
        kind = classOf(code);
      } while (kind === punctuation);
      punctuationCount += index - start;
      if (index - start === 1 && kind <= otherLetter && before !== space) joinedPunctuation++;
      else punctuationRuns++;
      before = punctuation;
      continue;
    }

    if (kind === cjkCharacter) cjk++;
    else if (kind === loneCjkCharacter) {
      cjk++;
      loneCjk++;
    } else if (kind === rareCjkCharacter) {
      cjk++;
      rareCjk++;
    } else if (kind === surrogate) surrogates++;
    else otherNonAscii++;
    before = kind;
    index++;
    code = codeAt(index, length);
    kind = classOf(code);
  }

  store<i32>(countsAt, letterPieces, 0);
  store<i32>(countsAt, attachedPieces, 4);
  store<i32>(countsAt, letters, 8);
  store<i32>(countsAt, capitals, 12);
  store<i32>(countsAt, rareLetterPairs, 16);
  store<i32>(countsAt, digitGroups, 20);
  store<i32>(countsAt, spacedNumbers, 24);
  store<i32>(countsAt, punctuationCount, 28);
  store<i32>(countsAt, punctuationRuns, 32);
  store<i32>(countsAt, joinedPunctuation, 36);
  store<i32>(countsAt, lineBreaks, 40);
  store<i32>(countsAt, spaceRuns, 44);
  store<i32>(countsAt, accentedLetters, 48);
  store<i32>(countsAt, cyrillicLetters, 52);
  store<i32>(countsAt, arabicLetters, 56);
  store<i32>(countsAt, indicLetters, 60);
  store<i32>(countsAt, hangulLetters, 64);
  store<i32>(countsAt, cjk, 68);
  store<i32>(countsAt, loneCjk, 72);
  store<i32>(countsAt, rareCjk, 76);
  store<i32>(countsAt, otherNonAscii, 80);
  store<i32>(countsAt, surrogates, 84);
}
