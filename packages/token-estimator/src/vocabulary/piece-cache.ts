/**
 * The token counts of the pieces a vocabulary has counted lately, by two independent 32-bit hashes of their
 * characters (UTF-16 code units, which name a piece as well as its bytes do): a direct-mapped table, each new
 * piece taking the slot of whatever hashed there before. Agents' text repeats its words, identifiers and
 * indentation, so most pieces are found here; a piece that is not pays for its count once (the vocabulary's
 * lookup, and its byte-pair merge when it is no token).
 *
 * Two different pieces are taken for one only when both hashes agree. A polynomial hash (`h * M + c`) would
 * not do: for any multiplier, text can be written whose pieces collide (two strings of 64 to 128 characters
 * built on the Thue–Morse sequence), and the first one counted would then set the count of the other, in every
 * later text of the process. Each step here mixes its character in beyond a multiplication (xor, multiply,
 * shift), and each table starts its hashes from keys drawn when it is made, so no text written in advance
 * collides but by chance: once in 2^64 pairs.
 */
export class PieceCache {
  private readonly firsts = new Int32Array(slots);
  private readonly seconds = new Int32Array(slots);
  /** Each slot's count; 0 marks an empty slot (every piece is a token at least). */
  private readonly counts = new Int32Array(slots);
  private readonly firstKey = randomKey();
  private readonly secondKey = randomKey();
  /** The hashes of the piece {@link find} looked up last, for {@link store}. */
  private lastFirst = 0;
  private lastSecond = 0;

  /** The count stored for the piece text[start..end), or 0; {@link store} then stores that piece's count. */
  find(text: string, start: number, end: number): number {
    let first = this.firstKey;
    let second = this.secondKey;
    for (let index = start; index < end; index++) {
      const code = text.charCodeAt(index);
      first = Math.imul(first ^ code, firstMultiplier);
      first ^= first >>> 15;
      second = Math.imul(second ^ code, secondMultiplier);
      second ^= second >>> 13;
    }
    this.lastFirst = first;
    this.lastSecond = second;
    const slot = Math.imul(first, slotMultiplier) >>> slotShift;
    return this.firsts[slot] === first && this.seconds[slot] === second ? this.counts[slot]! : 0;
  }

  /** Stores the count of the piece {@link find} looked up last. */
  store(count: number): void {
    const first = this.lastFirst;
    const slot = Math.imul(first, slotMultiplier) >>> slotShift;
    this.firsts[slot] = first;
    this.seconds[slot] = this.lastSecond;
    this.counts[slot] = count;
  }
}

/** 16,384 slots: the distinct pieces of a long session's recent text, and small enough to stay in cache. */
const slotBits = 14;
const slots = 1 << slotBits;
const slotShift = 32 - slotBits;
const slotMultiplier = 0x9e3779b1;
/** Odd multipliers of the two hashes, with good avalanche (MurmurHash3's). */
const firstMultiplier = 0xcc9e2d51;
const secondMultiplier = 0x1b873593;

/** A 32-bit key. Math.random runs everywhere the package does; the keys only need to be unknown to the text. */
function randomKey(): number {
  return (Math.random() * 0x100000000) | 0;
}
