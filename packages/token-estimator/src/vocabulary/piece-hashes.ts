import { type FingerprintTable, noRank } from './fingerprint-table.js';

/**
 * The UTF-8 bytes of one piece of text and the fingerprint hash of each of their prefixes, so the fingerprint
 * of any span is found in O(1): hash(bytes[start..end)) = prefix[end] - prefix[start] * multiplier^(end-start),
 * mod 2^32. Its buffers are reused from piece to piece and grow for long pieces.
 */
export class PieceHashes {
  length = 0;
  bytes = new Uint8Array(256);
  private prefix = new Uint32Array(257);
  private power = new Uint32Array(257);
  private readonly table: FingerprintTable;
  private readonly multiplier: number;
  private readonly checkMultiplier: number;

  constructor(table: FingerprintTable) {
    this.table = table;
    this.multiplier = table.fingerprintMultiplier;
    this.checkMultiplier = table.checkMultiplier;
    this.fillPowers(0);
  }

  /**
   * Encodes text[start..end) as tiktoken receives it: UTF-8, with each lone surrogate replaced by U+FFFD (as a
   * JavaScript string is converted for WebAssembly), and hashes its prefixes.
   */
  encode(text: string, start: number, end: number): void {
    // At most 3 bytes per UTF-16 code unit (a surrogate pair is 2 units and 4 bytes).
    if ((end - start) * 3 >= this.bytes.length) this.grow((end - start) * 3 + 1);
    const bytes = this.bytes;
    let length = 0;
    for (let index = start; index < end; index++) {
      const code = text.charCodeAt(index);
      if (code < 0x80) {
        bytes[length++] = code;
      } else if (code < 0x800) {
        bytes[length++] = 0xc0 | (code >> 6);
        bytes[length++] = 0x80 | (code & 0x3f);
      } else if (code < 0xd800 || code > 0xdfff) {
        bytes[length++] = 0xe0 | (code >> 12);
        bytes[length++] = 0x80 | ((code >> 6) & 0x3f);
        bytes[length++] = 0x80 | (code & 0x3f);
      } else {
        const low = index + 1 < end ? text.charCodeAt(index + 1) : 0;
        if (code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
          const point = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          bytes[length++] = 0xf0 | (point >> 18);
          bytes[length++] = 0x80 | ((point >> 12) & 0x3f);
          bytes[length++] = 0x80 | ((point >> 6) & 0x3f);
          bytes[length++] = 0x80 | (point & 0x3f);
          index++;
        } else {
          bytes[length++] = 0xef;
          bytes[length++] = 0xbf;
          bytes[length++] = 0xbd;
        }
      }
    }
    this.length = length;
    const prefix = this.prefix;
    const multiplier = this.multiplier;
    let hash = 0;
    for (let index = 0; index < length; index++) {
      hash = (Math.imul(hash, multiplier) + bytes[index]! + 1) | 0;
      prefix[index + 1] = hash;
    }
  }

  /** The rank of the token whose bytes are bytes[start..end), or {@link noRank}. */
  rankOfSpan(start: number, end: number): number {
    const fingerprint = (this.prefix[end]! - Math.imul(this.prefix[start]!, this.power[end - start]!)) >>> 0;
    const rank = this.table.rankOf(fingerprint);
    if (rank === noRank) return noRank;
    // A span that is no token matches some token's 32-bit fingerprint about once in 2^32 / vocabulary size
    // lookups: the check's 16 more bits make that 65,536 times rarer.
    const bytes = this.bytes;
    const multiplier = this.checkMultiplier;
    let check = 0;
    for (let index = start; index < end; index++)
      check = (Math.imul(check, multiplier) + bytes[index]! + 1) | 0;
    return check >>> 16 === this.table.checkOf(rank) ? rank : noRank;
  }

  private grow(capacity: number): void {
    let size = this.bytes.length;
    while (size <= capacity) size *= 2;
    this.bytes = new Uint8Array(size);
    this.prefix = new Uint32Array(size + 1);
    const filled = this.power.length;
    const power = new Uint32Array(size + 1);
    power.set(this.power);
    this.power = power;
    this.fillPowers(filled - 1);
  }

  /** Fills power[from + 1..] from power[from]. */
  private fillPowers(from: number): void {
    const power = this.power;
    if (from === 0) power[0] = 1;
    for (let index = from + 1; index < power.length; index++) {
      power[index] = Math.imul(power[index - 1]!, this.multiplier);
    }
  }
}
