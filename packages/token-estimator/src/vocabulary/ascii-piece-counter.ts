import { EmbeddedModule } from '../embedded-module.js';
import { asciiPieceCounterBinary } from './ascii-piece-counter-binary.js';
import { asciiClasses } from './ascii-pieces.js';

/** Where the module expects things in its memory (see assembly/ascii-piece-counter.ts). */
const keysAt = 256;
const resultsAt = 264;
const tableAt = 1024;
const setBits = 15;
const missesAt = tableAt + (2 << setBits) * 16;
const missCapacity = 4096;
const textAt = missesAt + missCapacity * 16;
/** Longer texts are counted in JavaScript, as the text scanner's are (src/text-scanner.ts). */
const maximumLength = 8 * 1024 * 1024;
/** Room after the text: a byte that ends every scan, and the rest of the last eight bytes read at a time. */
const spareBytes = 16;

type Count = (from: number, to: number, length: number, cl100k: number) => number;
type Recall = (first: number, second: number) => number;
type Remember = (first: number, second: number, count: number) => void;

/** The count of the piece text[start..end) by byte-pair merging. */
export type PieceCounter = (text: string, start: number, end: number) => number;

/**
 * The exact count's ASCII path in WebAssembly (assembly/ascii-piece-counter.ts): the pieces of the encoding's
 * pattern, each looked up in a table of counts kept in the module's memory (32,768 sets of two, the most
 * recent first), so that most pieces cost a hash and a lookup. The pieces the table does not hold come back as
 * misses, and are counted by byte-pair merging here and stored. One per vocabulary: its table holds the counts
 * of one encoding.
 */
export class AsciiPieceCounter {
  private readonly module: EmbeddedModule;
  private readonly cl100k: number;
  private readonly countPieces: Count;
  private readonly recall: Recall;
  private readonly remember: Remember;
  /** A view of the memory, made again when copying a text grew it. */
  private integers: Int32Array;

  private constructor(module: EmbeddedModule, cl100k: boolean) {
    this.module = module;
    this.cl100k = cl100k ? 1 : 0;
    this.countPieces = module.exports.count as Count;
    this.recall = module.exports.recall as Recall;
    this.remember = module.exports.remember as Remember;
    this.integers = new Int32Array(module.buffer);
    new Uint8Array(module.buffer, 0, asciiClasses.length).set(asciiClasses);
    // A key drawn per table (64 bits, as two numbers), as the JavaScript piece cache's are (piece-cache.ts): no
    // text written in advance makes two pieces collide.
    const keys = new Int32Array(module.buffer, keysAt, 2);
    keys[0] = (Math.random() * 0x100000000) | 0;
    keys[1] = (Math.random() * 0x100000000) | 0;
  }

  /** A counter for an encoding, or `null` where the module cannot run (see embedded-module.ts). */
  static create(encoding: 'o200k_base' | 'cl100k_base'): AsciiPieceCounter | null {
    const module = EmbeddedModule.instantiate(
      asciiPieceCounterBinary,
      textAt + 1,
      textAt + maximumLength + spareBytes,
    );
    return module === null ? null : new AsciiPieceCounter(module, encoding === 'cl100k_base');
  }

  /**
   * Copies a text into the module, for {@link count}: `ascii` when it is all ASCII, `mixed` when it is not (the
   * caller counts only its ASCII stretches here), `null` when it is too long or memory runs out.
   */
  load(text: string): 'ascii' | 'mixed' | null {
    if (text.length > maximumLength) return null;
    let loaded: 'ascii' | 'mixed' | null = null;
    if (this.module.copyAscii(text, textAt, spareBytes)) loaded = 'ascii';
    else if (this.module.copyText(text, textAt, 'latin1', spareBytes)) loaded = 'mixed';
    if (this.integers.buffer !== this.module.buffer) this.integers = new Int32Array(this.module.buffer);
    return loaded;
  }

  /**
   * The tokens of the pieces of text[from..to), the text {@link load}ed last: `to` is the end of the text or the
   * start of a piece, and the text is ASCII from `from` to `to`. `countPiece` counts the pieces never seen.
   */
  count(text: string, from: number, to: number, countPiece: PieceCounter): number {
    const integers = this.integers;
    let tokens = 0;
    for (let start = from; start < to; ) {
      tokens += this.countPieces(start, to, text.length, this.cl100k);
      const misses = integers[resultsAt >> 2]!;
      for (let miss = 0, at = missesAt >> 2; miss < misses; miss++, at += 4) {
        const first = integers[at + 2]!;
        const second = integers[at + 3]!;
        // The same new piece can be missed several times in one scan: only the first is merged.
        let pieceTokens = this.recall(first, second);
        if (pieceTokens === 0) {
          pieceTokens = countPiece(text, integers[at]!, integers[at + 1]!);
          this.remember(first, second, pieceTokens);
        }
        tokens += pieceTokens;
      }
      start = integers[(resultsAt >> 2) + 1]!;
    }
    return tokens;
  }
}
