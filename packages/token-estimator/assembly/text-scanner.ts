/**
 * The WebAssembly build of `measureText` (src/text-features.ts), written in AssemblyScript. It counts
 * exactly the same features with exactly the same rules, one branch for one branch, so the two give the same
 * numbers on every string (a property test holds them to it); the JavaScript version stays the reference and
 * the fallback. Compiled by `pnpm --filter @compaction/token-estimator build:scanner` into src/text-scanner-binary.ts.
 *
 * Memory (imported, laid out by src/text-scanner.ts): the class of every UTF-16 unit at 0 (64 KB, and
 * one more byte for `pastEnd`), the table of rare letter pairs at `pairsAt` (1 KB), the counts written at
 * `countsAt` (the features, then the long-run tokens), the text's UTF-16 units from `textAt`.
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
const end: u32 = 14;
/** What `before` holds after a single punctuation character joined to the word after it. */
const joinedCharacter: u32 = 15;
/** A symbol of the emoji blocks of the Basic Multilingual Plane, counted as two surrogates. */
const emojiSymbol: u32 = 16;
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

/** The shortest periodic stretch of a word with a floor, as `longRunMinimum` in text-features.ts. */
const longRunMinimum: i32 = 32;
/** The shortest run of whitespace or punctuation with a floor. */
const longSeparatorMinimum: i32 = 16;

/** The unit at `index`, which is inside the text. */
function unitAt(index: i32): u32 {
  return <u32>load<u16>(textAt + ((<usize>index) << 1));
}

/** As `repeatedLetterShift` in text-features.ts. */
function repeatedLetterShift(code: u32): i32 {
  if (code < 65) return 2;
  if (code > 122) return 1;
  const bit: u32 = 1 << (code & 31);
  if (((code < 97 ? 0x1000042 : 0x1008042) & bit) !== 0) return 3;
  return ((code < 97 ? 0x200302c : 0x200003c) & bit) !== 0 ? 2 : 1;
}

/** As `isUniform` in text-features.ts. */
function isUniform(from: i32, count: i32): bool {
  for (let index = from + 1; index < from + count; index++) {
    if (unitAt(index) !== unitAt(from)) return false;
  }
  return true;
}

/** As `repeatedWordFloor` in text-features.ts. */
function repeatedWordFloor(start: i32, end: i32): i32 {
  let floor: i32 = 0;
  for (let period: i32 = 1; period <= 4; period++) {
    let forward = start + period;
    if (period === 1 || !isUniform(start, period)) {
      while (forward < end && unitAt(forward) === unitAt(forward - period)) forward++;
    }
    let backward = end - 1 - period;
    if (period === 1 || !isUniform(end - period, period)) {
      while (backward >= start && unitAt(backward) === unitAt(backward + period)) backward--;
    }
    const atStart = forward - start >= end - 1 - backward;
    const stretch = atStart ? forward - start : end - 1 - backward;
    if (stretch < longRunMinimum) continue;
    const shift = period === 1 ? repeatedLetterShift(unitAt(atStart ? start : end - 1)) : 1;
    const periodFloor = (stretch + (1 << shift) - 1) >> shift;
    if (periodFloor > floor) floor = periodFloor;
  }
  return floor;
}

/** As `punctuationRunShift` in text-features.ts: at most 2 to the result characters per token. */
function punctuationRunShift(start: i32, end: i32): i32 {
  const first = unitAt(start);
  let index = start + 1;
  while (index < end && unitAt(index) === first) index++;
  if (index < end) return 4;
  const bit: u32 = 1 << (first & 31);
  const dense: u32 = first < 64 ? 0x2000e408 : first < 96 ? 0x80000000 : 0;
  if ((dense & bit) !== 0) return 5;
  const fair: u32 = first < 64 ? 0x820 : first < 96 ? 0 : 0x40000000;
  if ((fair & bit) !== 0) return 4;
  const medium: u32 = first < 64 ? 0xdc000002 : first < 96 ? 0x40000001 : 0;
  return (medium & bit) !== 0 ? 2 : 1;
}

/** As `joinsWord` in text-features.ts. */
function joinsWord(code: u32): bool {
  return code < 64 ? ((0x4100 >>> (code & 31)) & 1) !== 0 : code === 95;
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
  let joinedPieces: i32 = 0;
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
  let joinedLineBreaks: i32 = 0;
  let titleCapitals: i32 = 0;
  let lettersThenDigits: i32 = 0;
  let greekLetters: i32 = 0;
  let sparseScriptLetters: i32 = 0;
  let longRunTokens: i32 = 0;
  let before: u32 = 0;
  let index: i32 = 0;
  let code = codeAt(0, length);
  let kind = classOf(code);
  while (index < length) {
    if (kind <= digit) {
      const start = index;
      const piecesBefore = letterPieces + joinedPieces;
      const capitalsBefore = capitals;
      const ownBefore = letterPieces + joinedPieces + digitGroups + rareLetterPairs;
      while (true) {
        if (kind === digit) {
          const digitStart = index;
          do {
            index++;
            code = codeAt(index, length);
            kind = classOf(code);
          } while (kind === digit);
          digitGroups += (index - digitStart + 2) / 3;
          if (digitStart !== start) lettersThenDigits++;
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
          if (index - pieceStart === 1 && code - 97 < 26) titleCapitals++;
          else capitals += index - pieceStart;
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
            else if (code < 0x530) {
              cyrillicLetters++;
              if (code < 0x400) greekLetters++;
            } else if (code < 0x590) {
              // Armenian, which cl100k learned as little as Georgian (two byte tokens a letter), unlike Cyrillic.
              indicLetters++;
              sparseScriptLetters++;
            } else if (code < 0x900) arabicLetters++;
            else if (code < 0xac00) {
              indicLetters++;
              if (code >= 0x980 && (code < 0xe00 || code >= 0xf00)) sparseScriptLetters++;
            } else hangulLetters++;
            previous = 0;
            index++;
            code = codeAt(index, length);
            kind = classOf(code);
          }
          letters += index - pieceStart;
          letterPieces++;
          if (pieceStart === start) {
            // A piece joined to the punctuation before it counts as that instead.
            if (before === joinedCharacter) {
              joinedPieces++;
              letterPieces--;
            } else if (before === punctuation) attachedPieces++;
          }
        } else break;
      }
      if (index - start >= longRunMinimum && letterPieces + joinedPieces !== piecesBefore) {
        const own =
          letterPieces +
          joinedPieces +
          digitGroups +
          rareLetterPairs -
          ownBefore +
          ((capitals - capitalsBefore) >> 3);
        const floor = repeatedWordFloor(start, index) - own;
        if (floor > 0) longRunTokens += floor;
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
        if (kind === digit || kind === end) spacedNumbers++;
        before = space;
        continue;
      }
    }

    if (kind <= otherWhitespace) {
      const start = index;
      let lineBreak = false;
      let trailing: i32 = 0;
      let trailingIsSpace = true;
      let notSpaces: i32 = 0;
      do {
        if (kind === newline) {
          lineBreak = true;
          trailing = 0;
          trailingIsSpace = true;
          notSpaces++;
        } else {
          trailing++;
          if (kind === otherWhitespace) {
            trailingIsSpace = false;
            notSpaces++;
          }
        }
        index++;
        code = codeAt(index, length);
        kind = classOf(code);
      } while (kind >= space && kind <= otherWhitespace);
      let own: i32 = 0;
      if (lineBreak) {
        const first = unitAt(start);
        if (before === punctuation && (first === 10 || first === 13)) joinedLineBreaks++;
        else lineBreaks++;
        own++;
      }
      if (trailing > 1 || (trailing === 1 && !trailingIsSpace && kind > otherLetter)) {
        spaceRuns++;
        own++;
      }
      if (index - start >= longSeparatorMinimum) {
        const floor = ((index - start - notSpaces + 63) >> 6) + ((notSpaces + 7) >> 3) - own;
        if (floor > 0) longRunTokens += floor;
      }
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
      punctuationRuns++;
      if (index - start === 1 && kind <= otherLetter && before !== space && joinsWord(unitAt(start))) {
        before = joinedCharacter;
        continue;
      }
      if (index - start >= longSeparatorMinimum) {
        const shift = punctuationRunShift(start, index);
        longRunTokens += ((index - start + (1 << shift) - 1) >> shift) - 1;
      }
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
    else if (kind === emojiSymbol) surrogates += 2;
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
  store<i32>(countsAt, joinedPieces, 36);
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
  store<i32>(countsAt, joinedLineBreaks, 88);
  store<i32>(countsAt, titleCapitals, 92);
  store<i32>(countsAt, lettersThenDigits, 96);
  store<i32>(countsAt, greekLetters, 100);
  store<i32>(countsAt, sparseScriptLetters, 104);
  store<i32>(countsAt, longRunTokens, 108);
}
