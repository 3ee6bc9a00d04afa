/**
 * A tokenizer's vocabulary as fingerprints (written by scripts/build-vocabulary-fingerprints.js): for each rank,
 * a hash of the token's UTF-8 bytes instead of the bytes, which is all byte-pair encoding needs to find ranks.
 */
export interface VocabularyFingerprints {
  /** The number of ranks, the highest plus one (special tokens are not among them). */
  readonly size: number;
  /**
   * The pre-tokenizer's regular expression, for the `u` flag: js-tiktoken's `pat_str`, rewritten to split text
   * as tiktoken does.
   */
  readonly pattern: string;
  /** The multiplier of the fingerprint hash (see piece-hashes.ts). */
  readonly fingerprintMultiplier: number;
  /** The multiplier of the check hash, whose upper 16 bits are stored. */
  readonly checkMultiplier: number;
  /** Base64 of one little-endian uint32 per rank, 0 for a rank without a token. */
  readonly fingerprints: string;
  /** Base64 of one little-endian uint16 per rank. */
  readonly checks: string;
}
