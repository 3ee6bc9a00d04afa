/**
 * The WebAssembly build of `measureText` (src/text-features.ts), written in AssemblyScript. It counts
 * exactly the same features with exactly the same rules, one function for one function and one branch for one
 * branch, so the two give the same numbers on every string (a property test holds them to it); the JavaScript
 * version stays the reference and the fallback. Compiled by `pnpm --filter @compaction/token-estimator
 * build:scanners` into src/text-scanner-binary.ts, which inlines the steps back into `measure`.
 *
 * Memory (imported, laid out by src/text-scanner.ts): the class of every UTF-16 unit at 0 (64 KB, and
 * one more byte for `pastEnd`), the table of rare letter pairs at `pairsAt` (1 KB), the counts written at
 * `countsAt` (the features, then the long-run tokens, then the class where the last step stopped, which the
 * caller does not read), the text's UTF-16 units from `textAt`.
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

// Where each feature is counted at `countsAt`, as in text-features.ts: its place in the order of the features.
const letterPiecesIndex: usize = 0;
const attachedPiecesIndex: usize = 1;
const lettersIndex: usize = 2;
const capitalsIndex: usize = 3;
const rareLetterPairsIndex: usize = 4;
const digitGroupsIndex: usize = 5;
const spacedNumbersIndex: usize = 6;
const punctuationIndex: usize = 7;
const punctuationRunsIndex: usize = 8;
const joinedPiecesIndex: usize = 9;
const lineBreaksIndex: usize = 10;
const spaceRunsIndex: usize = 11;
const accentedLettersIndex: usize = 12;
const cyrillicLettersIndex: usize = 13;
const arabicLettersIndex: usize = 14;
const indicLettersIndex: usize = 15;
const hangulLettersIndex: usize = 16;
const cjkIndex: usize = 17;
const loneCjkIndex: usize = 18;
const rareCjkIndex: usize = 19;
const otherNonAsciiIndex: usize = 20;
const surrogatesIndex: usize = 21;
const joinedLineBreaksIndex: usize = 22;
const titleCapitalsIndex: usize = 23;
const lettersThenDigitsIndex: usize = 24;
const greekLettersIndex: usize = 25;
const sparseScriptLettersIndex: usize = 26;
const longRunTokensIndex: usize = 27;
/** The features and the long-run tokens, which the caller reads. */
const measuredCount: usize = 28;
/** As `stoppedAtIndex` in text-features.ts: the class of the unit the last step stopped at, after the counts. */
const stoppedAtIndex: usize = measuredCount;

/** The count at `feature` (or the class at `stoppedAtIndex`), as the steps of `measure` have left it. */
function countOf(feature: usize): i32 {
  return load<i32>(countsAt + (feature << 2));
}

/** Sets the count at `feature` (or the class at `stoppedAtIndex`). */
function setCount(feature: usize, value: i32): void {
  store<i32>(countsAt + (feature << 2), value);
}

/** Adds `amount` to the count at `feature`. */
function add(feature: usize, amount: i32): void {
  setCount(feature, countOf(feature) + amount);
}

/** As `countScriptLetter` in text-features.ts. */
function countScriptLetter(code: u32): void {
  if (code < 0x370) add(accentedLettersIndex, 1);
  else if (code < 0x530) {
    add(cyrillicLettersIndex, 1);
    if (code < 0x400) add(greekLettersIndex, 1);
  } else if (code < 0x590) {
    // Armenian, which cl100k learned as little as Georgian (two byte tokens a letter), unlike Cyrillic.
    add(indicLettersIndex, 1);
    add(sparseScriptLettersIndex, 1);
  } else if (code < 0x900) add(arabicLettersIndex, 1);
  else if (code < 0xac00) {
    add(indicLettersIndex, 1);
    if (code >= 0x980 && (code < 0xe00 || code >= 0xf00)) add(sparseScriptLettersIndex, 1);
  } else add(hangulLettersIndex, 1);
}

/** As `scanLetterPiece` in text-features.ts. */
function scanLetterPiece(start: i32, length: i32): i32 {
  let index = start;
  let code = unitAt(start);
  let kind = classOf(code);
  let previous: u32 = 0;
  let rarePairs: i32 = 0;
  while (kind === upper) {
    rarePairs += rarePair(previous, code);
    previous = code & 31;
    index++;
    code = codeAt(index, length);
    kind = classOf(code);
  }
  if (index - start === 1 && code - 97 < 26) add(titleCapitalsIndex, 1);
  else add(capitalsIndex, index - start);
  while (true) {
    // Lowercase ASCII letters tested by range (one unsigned comparison), without reading their class.
    while (code - 97 < 26) {
      rarePairs += rarePair(previous, code);
      previous = code & 31;
      index++;
      code = codeAt(index, length);
    }
    kind = classOf(code);
    if (kind !== otherLetter) break;
    countScriptLetter(code);
    previous = 0;
    index++;
    code = codeAt(index, length);
  }
  add(rareLetterPairsIndex, rarePairs);
  add(lettersIndex, index - start);
  add(letterPiecesIndex, 1);
  setCount(stoppedAtIndex, kind);
  return index;
}

/** As `scanDigits` in text-features.ts. */
function scanDigits(start: i32, length: i32): i32 {
  let index = start + 1;
  let kind = classOf(codeAt(index, length));
  while (kind === digit) kind = classOf(codeAt(++index, length));
  add(digitGroupsIndex, (index - start + 2) / 3);
  setCount(stoppedAtIndex, kind);
  return index;
}

/** As `countWordFloor` in text-features.ts. */
function countWordFloor(start: i32, end: i32, ownBefore: i32, capitalsBefore: i32): void {
  const own = wordOwnCount() - ownBefore + ((countOf(capitalsIndex) - capitalsBefore) >> 3);
  const floor = repeatedWordFloor(start, end) - own;
  if (floor > 0) add(longRunTokensIndex, floor);
}

/** As `wordOwnCount` in text-features.ts. */
function wordOwnCount(): i32 {
  return (
    countOf(letterPiecesIndex) +
    countOf(joinedPiecesIndex) +
    countOf(digitGroupsIndex) +
    countOf(rareLetterPairsIndex)
  );
}

/** As `scanWord` in text-features.ts. */
function scanWord(start: i32, kind: u32, before: u32, length: i32): i32 {
  const ownBefore = wordOwnCount();
  const capitalsBefore = countOf(capitalsIndex);
  let index = start;
  let hasLetters = false;
  while (true) {
    if (kind === digit) {
      if (index !== start) add(lettersThenDigitsIndex, 1);
      index = scanDigits(index, length);
    } else if (kind <= otherLetter) {
      const pieceStart = index;
      index = scanLetterPiece(index, length);
      hasLetters = true;
      // A piece joined to the punctuation before it counts as that instead.
      if (pieceStart === start && before === joinedCharacter) {
        add(joinedPiecesIndex, 1);
        add(letterPiecesIndex, -1);
      } else if (pieceStart === start && before === punctuation) add(attachedPiecesIndex, 1);
    } else break;
    kind = <u32>countOf(stoppedAtIndex);
  }
  if (index - start >= longRunMinimum && hasLetters) countWordFloor(start, index, ownBefore, capitalsBefore);
  return index;
}

/** As `countWhitespaceFloor` in text-features.ts. */
function countWhitespaceFloor(length: i32, notSpaces: i32, own: i32): void {
  const floor = ((length - notSpaces + 63) >> 6) + ((notSpaces + 7) >> 3) - own;
  if (floor > 0) add(longRunTokensIndex, floor);
}

/** As `scanWhitespace` in text-features.ts. */
function scanWhitespace(start: i32, kind: u32, before: u32, length: i32): i32 {
  let index = start;
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
    kind = classOf(codeAt(index, length));
  } while (kind >= space && kind <= otherWhitespace);
  setCount(stoppedAtIndex, kind);
  let own: i32 = 0;
  if (lineBreak) {
    const first = unitAt(start);
    if (before === punctuation && (first === 10 || first === 13)) add(joinedLineBreaksIndex, 1);
    else add(lineBreaksIndex, 1);
    own++;
  }
  if (trailing > 1 || (trailing === 1 && !trailingIsSpace && kind > otherLetter)) {
    add(spaceRunsIndex, 1);
    own++;
  }
  if (index - start >= longSeparatorMinimum) countWhitespaceFloor(index - start, notSpaces, own);
  return index;
}

/** As `countPunctuationFloor` in text-features.ts. */
function countPunctuationFloor(start: i32, end: i32): void {
  const shift = punctuationRunShift(start, end);
  add(longRunTokensIndex, ((end - start + (1 << shift) - 1) >> shift) - 1);
}

/** As `scanPunctuation` in text-features.ts. */
function scanPunctuation(start: i32, length: i32): i32 {
  let index = start + 1;
  let kind = classOf(codeAt(index, length));
  while (kind === punctuation) kind = classOf(codeAt(++index, length));
  setCount(stoppedAtIndex, kind);
  add(punctuationIndex, index - start);
  add(punctuationRunsIndex, 1);
  if (index - start >= longSeparatorMinimum) countPunctuationFloor(start, index);
  return index;
}

/** As `countOtherUnit` in text-features.ts. */
function countOtherUnit(kind: u32): void {
  if (kind === cjkCharacter) add(cjkIndex, 1);
  else if (kind === loneCjkCharacter) {
    add(cjkIndex, 1);
    add(loneCjkIndex, 1);
  } else if (kind === rareCjkCharacter) {
    add(cjkIndex, 1);
    add(rareCjkIndex, 1);
  } else if (kind === surrogate) add(surrogatesIndex, 1);
  else if (kind === emojiSymbol) add(surrogatesIndex, 2);
  else add(otherNonAsciiIndex, 1);
}

/** Counts the features of the `length` units at `textAt` and writes them, in order, at `countsAt`. */
export function measure(length: i32): void {
  for (let feature: usize = 0; feature <= stoppedAtIndex; feature++) setCount(feature, 0);
  let before: u32 = 0;
  let index: i32 = 0;
  let kind = classOf(codeAt(0, length));
  while (index < length) {
    const start = index;
    if (kind <= digit) {
      index = scanWord(start, kind, before, length);
      kind = <u32>countOf(stoppedAtIndex);
      before = digit;
    } else if (kind <= otherWhitespace) {
      const next = kind === space ? classOf(codeAt(index + 1, length)) : space;
      if (next < space || next > otherWhitespace) {
        if (next === digit || next === end) add(spacedNumbersIndex, 1);
        index++;
        kind = next;
      } else {
        index = scanWhitespace(start, kind, before, length);
        kind = <u32>countOf(stoppedAtIndex);
      }
      before = space;
    } else if (kind === punctuation) {
      index = scanPunctuation(start, length);
      kind = <u32>countOf(stoppedAtIndex);
      const joins =
        index === start + 1 && kind <= otherLetter && before !== space && joinsWord(unitAt(start));
      before = joins ? joinedCharacter : punctuation;
    } else {
      countOtherUnit(kind);
      before = kind;
      index++;
      kind = classOf(codeAt(index, length));
    }
  }
}
