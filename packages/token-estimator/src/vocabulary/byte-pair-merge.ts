import { noRank } from './fingerprint-table.js';
import type { PieceHashes } from './piece-hashes.js';

/** Up to this many bytes, rescanning every pair for the lowest rank is cheaper than keeping a heap. */
const longestScannedPiece = 16;
/** The rank of a pair that is no token: above every rank. */
const noPair = 0x7fffffff;
/** Heap keys are rank × 2^32 + start: the lowest rank first and, among equal ranks, the leftmost pair. */
const startFactor = 4294967296;

/**
 * The number of tokens byte-pair encoding leaves of the piece held by `hashes`, merged as tiktoken merges
 * (`_byte_pair_merge`): repeatedly the adjacent pair of parts whose bytes have the lowest rank, the leftmost
 * of equal ranks, until no pair is a token. Short pieces rescan the pairs like tiktoken; long ones keep the
 * pairs in a min-heap over a linked list of parts, so a piece of n bytes costs O(n log n), not O(n²).
 */
export class BytePairMerge {
  private starts = new Int32Array(64);
  private pairRanks = new Int32Array(64);
  private next = new Int32Array(64);
  private previous = new Int32Array(64);
  private heapKeys = new Float64Array(64);
  private heapStarts = new Int32Array(64);
  private heapEnds = new Int32Array(64);
  private heapSize = 0;

  /** The token count of the piece in `hashes`, which is known not to be a single token. */
  count(hashes: PieceHashes): number {
    return hashes.length <= longestScannedPiece ? this.countByScanning(hashes) : this.countWithHeap(hashes);
  }

  private countByScanning(hashes: PieceHashes): number {
    const length = hashes.length;
    const starts = this.starts;
    const pairRanks = this.pairRanks;
    let parts = length;
    for (let index = 0; index <= length; index++) starts[index] = index;
    for (let index = 0; index + 1 < length; index++) {
      const rank = hashes.rankOfSpan(index, index + 2);
      pairRanks[index] = rank === noRank ? noPair : rank;
    }
    for (;;) {
      let lowest = noPair;
      let at = -1;
      for (let index = 0; index + 1 < parts; index++) {
        if (pairRanks[index]! < lowest) {
          lowest = pairRanks[index]!;
          at = index;
        }
      }
      if (at < 0) return parts;
      // Part at+1 joins part at: the parts and pairs after it move down one place.
      for (let index = at + 1; index < parts; index++) starts[index] = starts[index + 1]!;
      for (let index = at + 1; index + 2 < parts; index++) pairRanks[index] = pairRanks[index + 1]!;
      parts--;
      if (at + 1 < parts) {
        const rank = hashes.rankOfSpan(starts[at]!, starts[at + 2]!);
        pairRanks[at] = rank === noRank ? noPair : rank;
      }
      if (at > 0) {
        const rank = hashes.rankOfSpan(starts[at - 1]!, starts[at + 1]!);
        pairRanks[at - 1] = rank === noRank ? noPair : rank;
      }
    }
  }

  private countWithHeap(hashes: PieceHashes): number {
    const length = hashes.length;
    this.reserve(length);
    const next = this.next;
    const previous = this.previous;
    // Parts are a linked list by start: next[start] is where the part ends, -1 once it joined the part before.
    for (let index = 0; index < length; index++) {
      next[index] = index + 1;
      previous[index] = index - 1;
    }
    next[length] = length + 1;
    this.heapSize = 0;
    for (let index = 0; index + 1 < length; index++) {
      const rank = hashes.rankOfSpan(index, index + 2);
      if (rank !== noRank) this.append(rank, index, index + 2);
    }
    for (let index = (this.heapSize >> 1) - 1; index >= 0; index--) this.siftDown(index);
    let parts = length;
    while (this.heapSize > 0) {
      const start = this.heapStarts[0]!;
      const end = this.heapEnds[0]!;
      this.removeTop();
      const middle = next[start]!;
      // A pair whose parts changed since it was pushed is stale: its parts' span is no longer [start, end).
      if (middle < 0 || middle >= end || next[middle] !== end) continue;
      next[start] = end;
      next[middle] = -1;
      if (end < length) previous[end] = start;
      parts--;
      if (end < length) {
        const after = next[end]!;
        const rank = hashes.rankOfSpan(start, after);
        if (rank !== noRank) this.push(rank, start, after);
      }
      if (start > 0) {
        const before = previous[start]!;
        const rank = hashes.rankOfSpan(before, end);
        if (rank !== noRank) this.push(rank, before, end);
      }
    }
    return parts;
  }

  /** Room for a piece of `length` bytes: its parts, and every pair ever pushed (at most 3 × length). */
  private reserve(length: number): void {
    if (this.next.length <= length + 1) {
      let size = this.next.length;
      while (size <= length + 1) size *= 2;
      this.next = new Int32Array(size);
      this.previous = new Int32Array(size);
    }
    if (this.heapKeys.length < length * 3) {
      let size = this.heapKeys.length;
      while (size < length * 3) size *= 2;
      this.heapKeys = new Float64Array(size);
      this.heapStarts = new Int32Array(size);
      this.heapEnds = new Int32Array(size);
    }
  }

  private append(rank: number, start: number, end: number): void {
    const at = this.heapSize++;
    this.heapKeys[at] = rank * startFactor + start;
    this.heapStarts[at] = start;
    this.heapEnds[at] = end;
  }

  private push(rank: number, start: number, end: number): void {
    const key = rank * startFactor + start;
    const keys = this.heapKeys;
    let at = this.heapSize++;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (keys[parent]! <= key) break;
      this.move(parent, at);
      at = parent;
    }
    keys[at] = key;
    this.heapStarts[at] = start;
    this.heapEnds[at] = end;
  }

  private removeTop(): void {
    const last = --this.heapSize;
    if (last === 0) return;
    this.move(last, 0);
    this.siftDown(0);
  }

  private siftDown(from: number): void {
    const keys = this.heapKeys;
    const size = this.heapSize;
    const key = keys[from]!;
    const start = this.heapStarts[from]!;
    const end = this.heapEnds[from]!;
    let at = from;
    for (;;) {
      let child = at * 2 + 1;
      if (child >= size) break;
      if (child + 1 < size && keys[child + 1]! < keys[child]!) child++;
      if (keys[child]! >= key) break;
      this.move(child, at);
      at = child;
    }
    keys[at] = key;
    this.heapStarts[at] = start;
    this.heapEnds[at] = end;
  }

  private move(from: number, to: number): void {
    this.heapKeys[to] = this.heapKeys[from]!;
    this.heapStarts[to] = this.heapStarts[from]!;
    this.heapEnds[to] = this.heapEnds[from]!;
  }
}
