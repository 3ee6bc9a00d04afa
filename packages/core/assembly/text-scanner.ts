/**
 * The WebAssembly build of `measureText` (src/tokens/text-features.ts), written in AssemblyScript. It counts
 * exactly the same features with exactly the same rules, one branch for one branch, so the two give the same
 * numbers on every string (a property test holds them to it); the JavaScript version stays the reference and
 * the fallback. Compiled by `pnpm --filter @compaction/core build:scanner` into src/tokens/text-scanner-binary.ts.
 *
 * Memory (imported, laid out by src/tokens/text-scanner.ts): the class of every UTF-16 unit at 0 (64 KB), the
 * counts written at `countsAt`, the text's UTF-16 units from `textAt`.
 */

// Character classes, the same numbers as in text-features.ts.
const lower: u32 = 1;
const upper: u32 = 2;
const otherLetter: u32 = 3;
const digit: u32 = 4;
const space: u32 = 5;
const newline: u32 = 6;
const otherWhitespace: u32 = 7;
const punctuation: u32 = 8;
const cjkCharacter: u32 = 9;
const surrogate: u32 = 10;
const end: u32 = 12;

const countsAt: usize = 65536;
const textAt: usize = 131072;

const blobMinimumLength: i32 = 16;
const hexMinimumLength: i32 = 8;
const longPieceLength: i32 = 8;

/** The class of the unit at `index`, `end` past the last one. */
function classAt(index: i32, length: i32): u32 {
  return index < length ? <u32>load<u8>(<usize>load<u16>(textAt + ((<usize>index) << 1))) : end;
}

/** Whether every unit in [start, stop) is a hexadecimal digit of one case. */
function isHex(start: i32, stop: i32): bool {
  let sawLower = false;
  let sawUpper = false;
  for (let index = start; index < stop; index++) {
    const code = <u32>load<u16>(textAt + ((<usize>index) << 1));
    if (code >= 48 && code <= 57) continue;
    if (code >= 97 && code <= 102) sawLower = true;
    else if (code >= 65 && code <= 70) sawUpper = true;
    else return false;
  }
  return !(sawLower && sawUpper);
}

/** Counts the features of the `length` units at `textAt` and writes them, in order, at `countsAt`. */
export function measure(length: i32): void {
  let letterPieces: i32 = 0;
  let attachedPieces: i32 = 0;
  let attachedLetters: i32 = 0;
  let letters: i32 = 0;
  let longPieceLetters: i32 = 0;
  let digitGroups: i32 = 0;
  let spacedNumbers: i32 = 0;
  let punctuationCount: i32 = 0;
  let punctuationRuns: i32 = 0;
  let lineBreaks: i32 = 0;
  let spaceRuns: i32 = 0;
  let nonAsciiLetters: i32 = 0;
  let cjk: i32 = 0;
  let otherNonAscii: i32 = 0;
  let surrogates: i32 = 0;
  let base64: i32 = 0;
  let hex: i32 = 0;
  let before: u32 = 0;
  let index: i32 = 0;
  let kind = classAt(0, length);
  while (index < length) {
    if (kind <= digit) {
      const start = index;
      let pieces: i32 = 0;
      let groups: i32 = 0;
      let digits: i32 = 0;
      let digitRuns: i32 = 0;
      let otherLetters: i32 = 0;
      let longLetters: i32 = 0;
      let firstPieceLetters: i32 = 0;
      while (true) {
        if (kind === digit) {
          const digitStart = index;
          do {
            index++;
            kind = classAt(index, length);
          } while (kind === digit);
          const run = index - digitStart;
          digits += run;
          digitRuns++;
          groups += (run + 2) / 3;
        } else if (kind <= otherLetter) {
          const pieceStart = index;
          while (kind === upper) {
            index++;
            kind = classAt(index, length);
          }
          while (true) {
            while (kind === lower) {
              index++;
              kind = classAt(index, length);
            }
            if (kind !== otherLetter) break;
            otherLetters++;
            index++;
            kind = classAt(index, length);
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
        isHex(start, index)
      ) {
        hex += runLength;
      } else if (
        digits > 0 &&
        runLetters > 0 &&
        otherLetters * 8 <= runLength &&
        runLength >= blobMinimumLength &&
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
      const next = classAt(index + 1, length);
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
        kind = classAt(index, length);
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
        kind = classAt(index, length);
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
    kind = classAt(index, length);
  }

  store<i32>(countsAt, letterPieces, 0);
  store<i32>(countsAt, attachedPieces, 4);
  store<i32>(countsAt, attachedLetters, 8);
  store<i32>(countsAt, letters, 12);
  store<i32>(countsAt, longPieceLetters, 16);
  store<i32>(countsAt, digitGroups, 20);
  store<i32>(countsAt, spacedNumbers, 24);
  store<i32>(countsAt, punctuationCount, 28);
  store<i32>(countsAt, punctuationRuns, 32);
  store<i32>(countsAt, lineBreaks, 36);
  store<i32>(countsAt, spaceRuns, 40);
  store<i32>(countsAt, nonAsciiLetters, 44);
  store<i32>(countsAt, cjk, 48);
  store<i32>(countsAt, otherNonAscii, 52);
  store<i32>(countsAt, surrogates, 56);
  store<i32>(countsAt, base64, 60);
  store<i32>(countsAt, hex, 64);
}
