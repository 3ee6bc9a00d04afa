import type { VocabularyFingerprints } from './vocabulary-fingerprints.js';

/** Whether no rank was found. */
export const noRank = -1;

/** Fibonacci hashing spreads the fingerprints' upper bits, the well-mixed ones, over the table's slots. */
const slotMultiplier = 0x9e3779b1;

function bytesOfBase64(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/**
 * The ranks of a vocabulary by fingerprint: an open-addressing table (linear probing, at most half full) of
 * fingerprints and ranks, and the check of each rank. No two tokens share a fingerprint (the build script makes
 * sure), so the first slot holding a fingerprint is its only one. A slot is two adjacent numbers, the
 * fingerprint and the rank, so that a lookup reads one cache line; fingerprint 0 marks an empty slot, as no
 * token has it.
 */
export class FingerprintTable {
  readonly fingerprintMultiplier: number;
  readonly checkMultiplier: number;
  /** Slot i is slots[2i] (the fingerprint, as a signed 32-bit number) and slots[2i + 1] (the rank). */
  private readonly slots: Int32Array;
  private readonly checks: Uint16Array;
  private readonly mask: number;
  private readonly shift: number;

  constructor(vocabulary: VocabularyFingerprints) {
    this.fingerprintMultiplier = vocabulary.fingerprintMultiplier;
    this.checkMultiplier = vocabulary.checkMultiplier;
    const fingerprints = new DataView(bytesOfBase64(vocabulary.fingerprints).buffer);
    const checkBytes = new DataView(bytesOfBase64(vocabulary.checks).buffer);
    let bits = 1;
    while (1 << bits < vocabulary.size * 2) bits++;
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
    this.slots = new Int32Array(2 << bits);
    this.checks = new Uint16Array(vocabulary.size);
    for (let rank = 0; rank < vocabulary.size; rank++) {
      const fingerprint = fingerprints.getUint32(rank * 4, true);
      // A rank without a token has the fingerprint 0, which is never indexed and so never matches.
      if (fingerprint === 0) continue;
      this.checks[rank] = checkBytes.getUint16(rank * 2, true);
      let slot = Math.imul(fingerprint, slotMultiplier) >>> this.shift;
      while (this.slots[slot * 2] !== 0) slot = (slot + 1) & this.mask;
      this.slots[slot * 2] = fingerprint;
      this.slots[slot * 2 + 1] = rank;
    }
  }

  /** The rank of the token with this fingerprint, or {@link noRank}. The caller confirms it with {@link checkOf}. */
  rankOf(fingerprint: number): number {
    const slots = this.slots;
    const key = fingerprint | 0;
    let slot = Math.imul(fingerprint, slotMultiplier) >>> this.shift;
    for (;;) {
      const stored = slots[slot * 2]!;
      if (stored === key) return key === 0 ? noRank : slots[slot * 2 + 1]!;
      if (stored === 0) return noRank;
      slot = (slot + 1) & this.mask;
    }
  }

  /** The check (the upper 16 bits of the check hash) of the token of a rank. */
  checkOf(rank: number): number {
    return this.checks[rank]!;
  }
}
