import { InvalidEstimatorSettingsError } from '../errors/invalid-estimator-settings-error.js';
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

/**
 * Whether a line that starts at `index` starts a piece in both encodings, whatever came before: after a line
 * feed, a printable ASCII character other than the space and the slash. No piece of either pattern holds a line
 * feed and then a character that is not blank, except o200k's punctuation pieces (` ?[^\s\p{L}\p{N}]+[\r\n/]*`),
 * which take the slashes after their line feeds; and matching from a piece's start never looks behind it.
 */
function startsPiece(text: string, index: number): boolean {
  if (index >= text.length || text.charCodeAt(index - 1) !== 0x0a) return false;
  const code = text.charCodeAt(index);
  return code > 0x20 && code < 0x7f && code !== 0x2f;
}

/** The last start of a piece (see {@link startsPiece}) at or before `index`, or 0. */
function pieceStartBefore(text: string, index: number): number {
  // lastIndexOf reads a negative position as 0, so the search stops at the text's first character itself.
  for (let lineFeed = text.lastIndexOf('\n', index - 1); lineFeed >= 0; ) {
    if (startsPiece(text, lineFeed + 1)) return lineFeed + 1;
    if (lineFeed === 0) break;
    lineFeed = text.lastIndexOf('\n', lineFeed - 1);
  }
  return 0;
}

/** The first start of a piece (see {@link startsPiece}) after `index`, or the end of the text. */
function pieceStartAfter(text: string, index: number): number {
  let lineFeed = text.indexOf('\n', index);
  while (lineFeed >= 0 && !startsPiece(text, lineFeed + 1)) lineFeed = text.indexOf('\n', lineFeed + 1);
  return lineFeed < 0 ? text.length : lineFeed + 1;
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
    vocabulary = new FingerprintVocabulary(encoding, fingerprintsOf[encoding]);
    loaded.set(encoding, vocabulary);
  }
  return vocabulary;
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

  constructor(encoding: EncodingName, fingerprints: VocabularyFingerprints) {
    this.encoding = encoding;
    this.asciiPieceEnd = asciiPieceEndOf[encoding];
    this.table = new FingerprintTable(fingerprints);
    this.hashes = new PieceHashes(this.table);
    this.pieces = new PreTokenizer(fingerprints.pattern);
  }

  /**
   * ASCII text goes whole to the ASCII scanner. In text with characters outside ASCII, mostly a few in a long
   * text of ASCII (a dash, a check mark, a name), only the lines that hold them are cut by the tokenizer's
   * pattern, several times slower than the scanner, which counts the lines between. Lines are cut where a piece
   * starts whatever came before ({@link startsPiece}), so each side has the pieces it has in the whole text.
   */
  countText(text: string): number {
    let count = 0;
    let asciiStart = 0;
    nextOutsideAscii.lastIndex = 0;
    while (nextOutsideAscii.test(text)) {
      const found = nextOutsideAscii.lastIndex - 1;
      const lineStart = Math.max(asciiStart, pieceStartBefore(text, found));
      const lineEnd = pieceStartAfter(text, found);
      count += this.countAscii(text, asciiStart, lineStart);
      count += this.countPieces(text.slice(lineStart, lineEnd));
      asciiStart = lineEnd;
      nextOutsideAscii.lastIndex = lineEnd;
    }
    return count + this.countAscii(text, asciiStart, text.length);
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
