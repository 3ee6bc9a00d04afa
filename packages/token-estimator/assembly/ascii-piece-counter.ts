/**
 * The WebAssembly build of the exact count's ASCII path (src/vocabulary/vocabulary.ts, `countAscii`): the
 * pieces of o200k_base's or cl100k_base's pattern, found as src/vocabulary/ascii-pieces.ts finds them (one
 * function for one function, one branch for one branch), each looked up by two keyed hashes in a table of
 * the counts of pieces seen before. A piece that is not there is written down as a miss; the caller counts
 * it by byte-pair merging and stores it with `remember`. Compiled by `pnpm --filter @compaction/token-estimator
 * build:scanners` into src/vocabulary/ascii-piece-counter-binary.ts.
 *
 * Memory (imported, laid out by src/vocabulary/ascii-piece-counter.ts): the class of each byte at 0 (256 bytes:
 * the classes of ascii-pieces.ts, then 0 for the rest, as that table has none), the hash key at `keysAt`, the
 * count of misses and where the scan stopped at `resultsAt`, the table of counts at `tableAt`, the misses at
 * `missesAt`, the text from `textAt`, one byte per UTF-16 unit (its low byte: only ASCII stretches are scanned,
 * and no scan reads past its stretch's end, a piece start whose character is ASCII), then at least 8 more bytes
 * (the end of the text is read eight bytes at a time).
 */

// Character classes, the same bits as in ascii-pieces.ts.
const upper: u32 = 1;
const lower: u32 = 2;
const digit: u32 = 4;
const lineBreak: u32 = 8;
const other: u32 = 32;
const slash: u32 = 64;
const letter: u32 = upper | lower;
const whitespace: u32 = lineBreak | 16;
const wordPrefix: u32 = 16 | other;

const space: u32 = 0x20;
const apostrophe: u32 = 0x27;

const keysAt: usize = 256;
const resultsAt: usize = 264;
const tableAt: usize = 1024;
/** 32,768 sets of two entries of 16 bytes (two hashes, a count, a spare word): 1 MB. */
const setBits: u32 = 15;
const setShift: u32 = 32 - setBits;
const missesAt: usize = tableAt + (2 << setBits) * 16;
/** Misses written before the scan stops and hands them to the caller. */
const missCapacity: i32 = 4096;
const textAt: usize = missesAt + <usize>missCapacity * 16;

const setMultiplier: i32 = <i32>0x9e3779b1;
/**
 * Odd 64-bit multipliers with good avalanche (MurmurHash3's finalizer's), in halves: a JavaScript number
 * literal holds no more than 53 bits exactly.
 */
const hashMultiplier: i64 = ((<i64>0xff51afd7) << 32) | <i64>0xed558ccd;
const finalMultiplier: i64 = ((<i64>0xc4ceb9fe) << 32) | <i64>0x1a85ec53;
/** The byte written past the text: outside ASCII, so of class 0. */
const pastEnd: u8 = 0x80;

/**
 * The class bits of the character at `index`, 0 past the end (as `classAt`): `count` writes a byte of class 0
 * just past the text, where every scan stops, so no index is compared with the length here (only
 * `contractionEnd` and `whitespaceEnd` need it, as in ascii-pieces.ts).
 */
function classAt(index: i32): u32 {
  return <u32>load<u8>(<usize>load<u8>(textAt + <usize>index));
}

function unitAt(index: i32): u32 {
  return <u32>load<u8>(textAt + <usize>index);
}

/** As `o200kAsciiPieceEnd`. */
function o200kPieceEnd(start: i32, length: i32): i32 {
  const firstKind = classAt(start);
  let index = start + 1;
  let kind = classAt(index);
  let wordKind = firstKind;
  if ((firstKind & letter) === 0) {
    if ((firstKind & wordPrefix) === 0 || (kind & letter) === 0) {
      return nonWordEnd(start, firstKind, kind, lineBreak | slash, length);
    }
    wordKind = kind;
    kind = classAt(++index);
  }
  if (wordKind & upper) while (kind & upper) kind = classAt(++index);
  while (kind & lower) kind = classAt(++index);
  return kind & other ? contractionEnd(index, length) : index;
}

/** As `cl100kAsciiPieceEnd`. */
function cl100kPieceEnd(start: i32, length: i32): i32 {
  const firstKind = classAt(start);
  let index = start + 1;
  let kind = classAt(index);
  if ((firstKind & letter) === 0) {
    if ((firstKind & wordPrefix) === 0 || (kind & letter) === 0) {
      return nonWordEnd(start, firstKind, kind, lineBreak, length);
    }
    if (unitAt(start) === apostrophe) {
      const end = contractionEnd(start, length);
      if (end > start) return end;
    }
    kind = classAt(++index);
  }
  while (kind & letter) kind = classAt(++index);
  return index;
}

/** As `nonWordEnd`. */
function nonWordEnd(start: i32, firstKind: u32, nextKind: u32, trailing: u32, length: i32): i32 {
  let index = start + 1;
  if (firstKind & digit) {
    if (nextKind & digit && classAt(++index) & digit) index++;
    return index;
  }
  if (firstKind & other || (nextKind & other && unitAt(start) === space)) {
    let kind = nextKind;
    while (kind & other) kind = classAt(++index);
    while (kind & trailing) kind = classAt(++index);
    return index;
  }
  return whitespaceEnd(start, length);
}

/** As `contractionEnd`. */
function contractionEnd(index: i32, length: i32): i32 {
  if (index + 1 >= length || unitAt(index) !== apostrophe) return index;
  const first = unitAt(index + 1) | 0x20;
  if (first === 0x73 || first === 0x74 || first === 0x6d || first === 0x64) return index + 2;
  if (index + 2 >= length) return index;
  const second = unitAt(index + 2) | 0x20;
  if (((first === 0x72 || first === 0x76) && second === 0x65) || (first === 0x6c && second === 0x6c)) {
    return index + 3;
  }
  return index;
}

/** As `whitespaceEnd`. */
function whitespaceEnd(start: i32, length: i32): i32 {
  let index = start;
  let lastLineBreak = -1;
  for (let kind = classAt(index); kind & whitespace; kind = classAt(++index)) {
    if (kind & lineBreak) lastLineBreak = index;
  }
  if (lastLineBreak >= 0) return lastLineBreak + 1;
  if (index === length || index === start + 1) return index;
  return index - 1;
}

/** The entry of a piece's set (two entries, the more recent first). */
function setOf(first: i32): usize {
  return tableAt + ((<usize>(<u32>(first * setMultiplier) >>> setShift)) << 5);
}

/** The count stored for a piece by its two hashes, or 0. */
export function recall(first: i32, second: i32): i32 {
  const entry = setOf(first);
  if (load<i32>(entry) === first && load<i32>(entry, 4) === second) return load<i32>(entry, 8);
  if (load<i32>(entry, 16) === first && load<i32>(entry, 20) === second) return load<i32>(entry, 24);
  return 0;
}

/** Stores the count of a piece, first in its set; the entry there moves second, and the second goes. */
export function remember(first: i32, second: i32, count: i32): void {
  const entry = setOf(first);
  store<i64>(entry, load<i64>(entry), 16);
  store<i64>(entry, load<i64>(entry, 8), 24);
  store<i32>(entry, first);
  store<i32>(entry, second, 4);
  store<i32>(entry, count, 8);
}

/**
 * The tokens of the pieces of text[from..to) that are one character or in the table; `length` is the whole
 * text's, `to` the start of a piece or the end, and `cl100k` picks the encoding's pattern (1) or o200k_base's
 * (0). Each other piece is written at `missesAt` (start, end and its two hashes); when `missCapacity` are
 * written, the scan stops before the next one. At `resultsAt`: the count of misses, then where the scan stopped
 * (`to` when it went through).
 */
export function count(from: i32, to: i32, length: i32, cl100k: i32): i32 {
  const key = load<i64>(keysAt);
  store<u8>(textAt + <usize>length, pastEnd);
  let tokens: i32 = 0;
  let misses: i32 = 0;
  let start = from;
  while (start < to) {
    const end = cl100k ? cl100kPieceEnd(start, length) : o200kPieceEnd(start, length);
    if (end - start === 1) {
      tokens++;
    } else {
      // One 64-bit hash of the piece's bytes, eight at a time, keyed, each word mixed in beyond a
      // multiplication, then mixed through: its halves stand for the two 32-bit hashes of `PieceCache.find`. The
      // length is mixed in first, a round of its own: the last word is filled with zeros, so "x\0" must differ
      // from "x", and length and word xored together would let "\x01\0" hash as "\0\0\0".
      let hash = (key ^ <i64>(end - start)) * hashMultiplier;
      hash ^= <i64>(<u64>hash >>> 29);
      let index = start;
      for (; index + 8 <= end; index += 8) {
        hash = (hash ^ load<i64>(textAt + <usize>index)) * hashMultiplier;
        hash ^= <i64>(<u64>hash >>> 29);
      }
      if (index < end) {
        const word = load<i64>(textAt + <usize>index) & (((<i64>1) << ((<i64>(end - index)) << 3)) - 1);
        hash = (hash ^ word) * hashMultiplier;
        hash ^= <i64>(<u64>hash >>> 29);
      }
      hash = (hash ^ <i64>(<u64>hash >>> 33)) * finalMultiplier;
      hash ^= <i64>(<u64>hash >>> 33);
      const first = <i32>hash;
      const second = <i32>(<u64>hash >>> 32);
      const known = recall(first, second);
      if (known !== 0) {
        tokens += known;
      } else {
        if (misses === missCapacity) break;
        const miss = missesAt + ((<usize>misses) << 4);
        store<i32>(miss, start);
        store<i32>(miss, end, 4);
        store<i32>(miss, first, 8);
        store<i32>(miss, second, 12);
        misses++;
      }
    }
    start = end;
  }
  store<i32>(resultsAt, misses);
  store<i32>(resultsAt, start, 4);
  return tokens;
}
