/**
 * The token counts of the pieces a vocabulary has counted lately, by two independent 32-bit hashes of
 * their characters: a direct-mapped table, each new piece taking the slot of whatever hashed there before.
 * Agents' text repeats its words, identifiers and indentation, so most pieces are found here; a piece that is
 * not pays for its count once (the vocabulary's lookup, and its byte-pair merge when it is no token).
 *
 * Two different pieces are taken for one only when both hashes agree: once in 2^64 pairs.
 */
export class PieceCache {
  private readonly firsts = new Int32Array(slots);
  private readonly seconds = new Int32Array(slots);
  /** Each slot's count; 0 marks an empty slot (every piece is a token at least). */
  private readonly counts = new Int32Array(slots);

  /** The count stored for a piece with these hashes, or 0. */
  find(first: number, second: number): number {
    const slot = Math.imul(first, slotMultiplier) >>> slotShift;
    return this.firsts[slot] === first && this.seconds[slot] === second ? this.counts[slot]! : 0;
  }

  store(first: number, second: number, count: number): void {
    const slot = Math.imul(first, slotMultiplier) >>> slotShift;
    this.firsts[slot] = first;
    this.seconds[slot] = second;
    this.counts[slot] = count;
  }
}

/** 16,384 slots: the distinct pieces of a long session's recent text, and small enough to stay in cache. */
const slotBits = 14;
const slots = 1 << slotBits;
const slotShift = 32 - slotBits;
const slotMultiplier = 0x9e3779b1;

/** The multiplier of the second hash, odd and unrelated to the fingerprints'. */
export const secondHashMultiplier = 0x2c1b3c6d;
