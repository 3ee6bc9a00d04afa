import { InvalidEstimatorSettingsError } from '../errors/invalid-estimator-settings-error.js';
import { RememberedCounts } from '../remembered-counts.js';
import { AsciiPieceCounter } from './ascii-piece-counter.js';
import { cl100kAsciiPieceEnd, o200kAsciiPieceEnd } from './ascii-pieces.js';
import { BytePairMerge } from './byte-pair-merge.js';
import { cl100kBaseFingerprints } from './cl100k-base-fingerprints.js';
import { FingerprintTable, noRank } from './fingerprint-table.js';
import { o200kBaseFingerprints } from './o200k-base-fingerprints.js';
import { PieceCache } from './piece-cache.js';
import { PieceHashes } from './piece-hashes.js';
import { PreTokenizer } from './pre-tokenizer.js';
import type { VocabularyFingerprints } from './vocabulary-fingerprints.js';

export type EncodingName = 'o200k_base' | 'cl100k_base';

export interface Vocabulary {
  readonly encoding: EncodingName;
  /** The exact token count of text, as tiktoken's encode_ordinary counts it (special-token text is ordinary text). */
  countText(text: string): number;
}

const fingerprintsOf: Record<EncodingName, VocabularyFingerprints> = {
  o200k_base: o200kBaseFingerprints,
  cl100k_base: cl100kBaseFingerprints,
};

/** The pre-tokenizer of each encoding on ASCII text, without its regular expression (ascii-pieces.ts). */
const asciiPieceEndOf: Record<EncodingName, (text: string, start: number) => number> = {
  o200k_base: o200kAsciiPieceEnd,
  cl100k_base: cl100kAsciiPieceEnd,
};

/** A character outside ASCII; global, to walk a text's such characters one after another. */
const nextOutsideAscii = /[\u0080-\uFFFF]/g;

/** Whether a UTF-16 unit is Unicode White_Space: the patterns' `\p{White_Space}`. */
function isWhiteSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** Whether a UTF-16 unit is an ASCII letter or digit. */
function isAsciiLetterOrDigit(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);
}

/**
 * Whether a piece starts at `index` in both encodings, whatever text comes before it and after it:
 * - after a line feed, a printable ASCII character other than the space and the slash. No piece of either
 *   pattern holds a line feed and then a character that is not blank, except o200k's punctuation pieces
 *   (` ?[^\s\p{L}\p{N}]+[\r\n/]*`), which take the slashes after their line feeds;
 * - a space after any character that is not White_Space (an arrow or a check mark as well as a letter): no
 *   piece holds such a character and then a space (a word's prefix is one character before letters, a
 *   punctuation run's space comes first, and whitespace pieces hold only whitespace);
 * - a line feed or a carriage return after an ASCII letter or digit: words and numbers end before them, and
 *   only punctuation pieces take line breaks after them.
 * Matching from a piece's start never looks behind it. The only look ahead, `\s+(?!\S)`, could see the end of a
 * stretch otherwise than the character after it, but it never decides a piece that ends at a cut: before a cut
 * after a line feed, `\s*[\r\n]+`, an alternative tried first, takes the blanks; before the other cuts, the
 * character is not blank.
 */
function startsPiece(text: string, index: number): boolean {
  if (index <= 0 || index >= text.length) return false;
  const before = text.charCodeAt(index - 1);
  const code = text.charCodeAt(index);
  if (before === 0x0a) return code > 0x20 && code < 0x7f && code !== 0x2f;
  if (code === 0x20) return !isWhiteSpace(before);
  return (code === 0x0a || code === 0x0d) && isAsciiLetterOrDigit(before);
}

/** The last start of a piece (see {@link startsPiece}) at or before `index` and after `floor`, or `floor`. */
function pieceStartBefore(text: string, index: number, floor: number): number {
  for (let start = index; start > floor; start--) if (startsPiece(text, start)) return start;
  return floor;
}

/** The first start of a piece (see {@link startsPiece}) after `index`, or the end of the text. */
function pieceStartAfter(text: string, index: number): number {
  for (let start = index + 1; start < text.length; start++) if (startsPiece(text, start)) return start;
  return text.length;
}

const loaded = new Map<EncodingName, Vocabulary>();

/** The vocabulary of an encoding, decoded and indexed on first use and kept (one per encoding per process). */
export function loadVocabulary(encoding: EncodingName): Vocabulary {
  let vocabulary = loaded.get(encoding);
  if (vocabulary === undefined) {
    // Callers in JavaScript, or with a name read from a config, can pass any string.
    if (!Object.hasOwn(fingerprintsOf, encoding)) {
      throw new InvalidEstimatorSettingsError([
        {
          path: 'encoding',
          message: `"${encoding}" is not one of ${Object.keys(fingerprintsOf).join(', ')}`,
        },
      ]);
    }
    vocabulary = createVocabulary(encoding);
    loaded.set(encoding, vocabulary);
  }
  return vocabulary;
}

/** Settings of {@link createVocabulary}. */
export interface VocabularySettings {
  /**
   * Counts ASCII text in WebAssembly where the runtime allows it (see ../embedded-module.ts). Default true;
   * false counts it in JavaScript, with the same result (tests hold the two to it).
   */
  webAssembly?: boolean;
}

/** A new vocabulary of an encoding that is one of {@link EncodingName}; {@link loadVocabulary} keeps one of each. */
export function createVocabulary(encoding: EncodingName, settings: VocabularySettings = {}): Vocabulary {
  const counter = settings.webAssembly === false ? null : AsciiPieceCounter.create(encoding);
  return new FingerprintVocabulary(encoding, fingerprintsOf[encoding], counter);
}

/**
 * A vocabulary that runs byte-pair encoding on fingerprints of the tokens instead of their bytes. A span of
 * text that is no token is taken for one only when both its 32-bit fingerprint and its 16-bit check match a
 * token's: once in 2^48 / 200,000 (1.4 × 10^9) lookups of o200k_base's vocabulary. That is one miscount in
 * about a gigabyte of the hardest text (CJK, Hangul or Cyrillic letters in random order, about a million
 * failed lookups a megabyte) and far less in natural text; the 32-bit fingerprint alone miscounted such text
 * dozens of times a megabyte.
 */
class FingerprintVocabulary implements Vocabulary {
  readonly encoding: EncodingName;
  private readonly table: FingerprintTable;
  private readonly hashes: PieceHashes;
  private readonly merge = new BytePairMerge();
  private readonly pieces: PreTokenizer;
  private readonly asciiPieceEnd: (text: string, start: number) => number;
  private readonly pieceCounts = new PieceCache();
  // Forgotten all at once when full: text with ever new stretches (other scripts) gains nothing here.
  private readonly stretchCounts = new RememberedCounts({ shortest: 0, longest: 32, characters: 4096 * 32 });
  /** The ASCII path in WebAssembly, or `null` where it cannot run: then the JavaScript scanner counts. */
  private readonly asciiCounter: AsciiPieceCounter | null;
  private readonly countPieceOf = (text: string, start: number, end: number): number =>
    this.countPiece(text, start, end);

  constructor(
    encoding: EncodingName,
    fingerprints: VocabularyFingerprints,
    asciiCounter: AsciiPieceCounter | null,
  ) {
    this.encoding = encoding;
    this.asciiCounter = asciiCounter;
    this.asciiPieceEnd = asciiPieceEndOf[encoding];
    this.table = new FingerprintTable(fingerprints);
    this.hashes = new PieceHashes(this.table);
    this.pieces = new PreTokenizer(fingerprints.pattern);
  }

  /**
   * ASCII text goes whole to the ASCII scanner. In text with characters outside ASCII, mostly a few in a long
   * text of ASCII (a dash, an arrow, a name), only the stretch around each of them is cut by the tokenizer's
   * pattern, tens of times slower than the scanner, which counts the text between. Stretches are cut where a
   * piece starts whatever comes before and after ({@link startsPiece}): at the nearest space after a word or
   * punctuation, or line start; so each side has the pieces it has in the whole text.
   */
  countText(text: string): number {
    const loaded = this.asciiCounter === null ? null : this.asciiCounter.load(text);
    if (loaded === 'ascii') return this.countAsciiIn(text, 0, text.length, true);
    const inModule = loaded !== null;
    let count = 0;
    let asciiStart = 0;
    nextOutsideAscii.lastIndex = 0;
    while (nextOutsideAscii.test(text)) {
      const found = nextOutsideAscii.lastIndex - 1;
      const stretchStart = pieceStartBefore(text, found, asciiStart);
      const stretchEnd = pieceStartAfter(text, found);
      count += this.countAsciiIn(text, asciiStart, stretchStart, inModule);
      count += this.countStretch(text.slice(stretchStart, stretchEnd));
      asciiStart = stretchEnd;
      nextOutsideAscii.lastIndex = stretchEnd;
    }
    return count + this.countAsciiIn(text, asciiStart, text.length, inModule);
  }

  /** ASCII text[from..to), in the module when the text was copied into it, else by {@link countAscii}. */
  private countAsciiIn(text: string, from: number, to: number, inModule: boolean): number {
    if (from >= to) return 0;
    return inModule
      ? this.asciiCounter!.count(text, from, to, this.countPieceOf)
      : this.countAscii(text, from, to);
  }

  /**
   * A stretch around characters outside ASCII, by {@link countPieces}; the counts of short ones are remembered,
   * since the same few come back line after line (` ✓ ` in a test runner's output, `→` after each line number of a
   * file read) and a stretch, cut where pieces start whatever surrounds it, always counts the same.
   */
  private countStretch(stretch: string): number {
    return this.stretchCounts.count(stretch, () => this.countPieces(stretch));
  }

  /** Any text: the pieces found by the tokenizer's own pattern, their counts remembered as ASCII pieces' are. */
  private countPieces(text: string): number {
    const pieces = this.pieces;
    let count = 0;
    pieces.reset();
    while (pieces.next(text)) count += this.countRemembered(text, pieces.start, pieces.end);
    return count;
  }

  /** ASCII text, most of what agents send: the pieces found by a scanner that needs no regular expression. */
  private countAscii(text: string, from: number, to: number): number {
    const pieceEnd = this.asciiPieceEnd;
    let count = 0;
    // `to` is the end of the text or the start of a piece, so no piece runs past it.
    for (let start = from, end = from; start < to; start = end) {
      end = pieceEnd(text, start);
      // A single byte is always a token.
      count += end - start === 1 ? 1 : this.countRemembered(text, start, end);
    }
    return count;
  }

  /** The count of the piece text[start..end), remembered (see {@link PieceCache}), since text repeats its pieces. */
  private countRemembered(text: string, start: number, end: number): number {
    let tokens = this.pieceCounts.find(text, start, end);
    if (tokens === 0) {
      tokens = this.countPiece(text, start, end);
      this.pieceCounts.store(tokens);
    }
    return tokens;
  }

  private countPiece(text: string, start: number, end: number): number {
    const hashes = this.hashes;
    hashes.encode(text, start, end);
    // Most pieces are one token; a single byte always is.
    if (hashes.length === 1 || hashes.rankOfSpan(0, hashes.length) !== noRank) return 1;
    return this.merge.count(hashes);
  }
}
