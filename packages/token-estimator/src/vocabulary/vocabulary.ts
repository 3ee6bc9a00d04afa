import { InvalidEstimatorSettingsError } from '../errors/invalid-estimator-settings-error.js';
import { AsciiPieceCache, secondHashMultiplier } from './ascii-piece-cache.js';
import { cl100kAsciiPieceEnd, o200kAsciiPieceEnd } from './ascii-pieces.js';
import { BytePairMerge } from './byte-pair-merge.js';
import { cl100kBaseFingerprints } from './cl100k-base-fingerprints.js';
import { FingerprintTable } from './fingerprint-table.js';
import { o200kBaseFingerprints } from './o200k-base-fingerprints.js';
import { noRank, PieceHashes } from './piece-hashes.js';
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

const outsideAscii = /[\u0080-\uFFFF]/;

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
  private readonly asciiPieces = new AsciiPieceCache();

  constructor(encoding: EncodingName, fingerprints: VocabularyFingerprints) {
    this.encoding = encoding;
    this.asciiPieceEnd = asciiPieceEndOf[encoding];
    this.table = new FingerprintTable(fingerprints);
    this.hashes = new PieceHashes(this.table);
    this.pieces = new PreTokenizer(fingerprints.pattern);
  }

  countText(text: string): number {
    return outsideAscii.test(text) ? this.countPieces(text) : this.countAscii(text);
  }

  /** Any text: the pieces found by the tokenizer's own pattern. */
  private countPieces(text: string): number {
    const pieces = this.pieces;
    let count = 0;
    pieces.reset();
    while (pieces.next(text)) count += this.countPiece(text, pieces.start, pieces.end);
    return count;
  }

  /**
   * ASCII text, most of what agents send: the pieces found by a scanner that needs no regular expression, and
   * their counts remembered by the characters' hashes, since text repeats its pieces.
   */
  private countAscii(text: string): number {
    const pieceEnd = this.asciiPieceEnd;
    const cache = this.asciiPieces;
    const multiplier = this.table.fingerprintMultiplier;
    let count = 0;
    for (let start = 0, end = 0; start < text.length; start = end) {
      end = pieceEnd(text, start);
      // A single byte is always a token.
      if (end - start === 1) {
        count++;
        continue;
      }
      let first = 0;
      let second = 0;
      for (let index = start; index < end; index++) {
        const code = text.charCodeAt(index) + 1;
        first = (Math.imul(first, multiplier) + code) | 0;
        second = (Math.imul(second, secondHashMultiplier) + code) | 0;
      }
      let tokens = cache.find(first, second);
      if (tokens === 0) {
        tokens = this.countPiece(text, start, end);
        cache.store(first, second, tokens);
      }
      count += tokens;
    }
    return count;
  }

  private countPiece(text: string, start: number, end: number): number {
    const hashes = this.hashes;
    hashes.encode(text, start, end);
    // Most pieces are one token; a single byte always is.
    if (hashes.length === 1 || hashes.rankOfSpan(0, hashes.length) !== noRank) return 1;
    return this.merge.count(hashes);
  }
}
