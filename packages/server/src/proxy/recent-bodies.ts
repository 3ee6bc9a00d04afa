import type { TokenEstimator } from '@compaction/core';
import type { ProxiedFormat } from './upstreams.js';

/** A body the proxy forwarded, its tokens counted as JSON text, and the proxy's count over that count. */
export interface SeenBody {
  raw: Buffer;
  textTokens: number;
  /** The proxy's own count of the body (its messages and overhead) over its text count. */
  scale: number;
}

/** Bodies kept per format: one per conversation under way, about. */
const maximumBodies = 16;
/**
 * A body is estimated from a recent one only when they share at least this share of its bytes: the bytes it
 * adds are counted with the calibration of the body it grew from.
 */
const leastSharedShare = 0.8;
/** Bytes compared at once when looking for where two bodies part. */
const compareStep = 4096;
/** A calibration outside these bounds is taken for a misreading. */
const scaleBounds = { lowest: 0.25, highest: 4 } as const;

/**
 * The recent request bodies of each format, counted as JSON text, so that a request is counted from what it
 * adds to the one before it, without parsing or converting it: an agent's requests repeat the previous one and
 * append a turn. Each text count is calibrated on the proxy's own count of the conversation's body it last
 * read whole.
 */
export class RecentBodies {
  private readonly bodies = new Map<ProxiedFormat, SeenBody[]>();

  constructor(private readonly estimator: TokenEstimator) {}

  /**
   * The proxy's count of `raw` (its messages and what it carries besides them), estimated from the recent body
   * of its format it shares the most bytes with; `undefined` when none shares enough.
   */
  estimate(
    format: ProxiedFormat,
    raw: Buffer,
  ): { textTokens: number; tokens: number; grewFrom: SeenBody } | undefined {
    let best: SeenBody | undefined;
    let shared = 0;
    for (const body of this.bodies.get(format) ?? []) {
      const length = sharedLength(raw, body.raw);
      if (length > shared) {
        best = body;
        shared = length;
      }
    }
    if (best === undefined || shared < raw.length * leastSharedShare) return undefined;
    const cut = characterStart(raw, shared);
    const textTokens =
      best.textTokens - this.countText(best.raw.subarray(cut)) + this.countText(raw.subarray(cut));
    return { textTokens, tokens: textTokens * best.scale, grewFrom: best };
  }

  /** Counts a whole body as JSON text. */
  countBody(raw: Buffer): number {
    return this.countText(raw);
  }

  /**
   * Remembers a forwarded body with its text count, in place of the body it grew from (given, or found);
   * `counted`, the proxy's own count of it read whole, calibrates its estimates and those of the bodies that
   * grow from it. A body neither counted nor grown from one is not kept.
   */
  remember(
    format: ProxiedFormat,
    raw: Buffer,
    textTokens: number,
    known: { counted?: number; grewFrom?: SeenBody } = {},
  ): void {
    const { counted, grewFrom } = known;
    const scale = counted !== undefined && textTokens > 0 ? counted / textTokens : grewFrom?.scale;
    if (scale === undefined || scale < scaleBounds.lowest || scale > scaleBounds.highest) return;
    const list = (this.bodies.get(format) ?? []).filter((body) =>
      grewFrom === undefined
        ? sharedLength(raw, body.raw) < body.raw.length * leastSharedShare
        : body !== grewFrom,
    );
    list.push({ raw, textTokens, scale });
    if (list.length > maximumBodies) list.shift();
    this.bodies.set(format, list);
  }

  private countText(bytes: Buffer): number {
    return bytes.length === 0 ? 0 : this.estimator.countText(bytes.toString('utf8'));
  }
}

/** How many leading bytes two buffers share. */
function sharedLength(first: Buffer, second: Buffer): number {
  const end = Math.min(first.length, second.length);
  let start = 0;
  while (start < end) {
    const stop = Math.min(end, start + compareStep);
    if (first.compare(second, start, stop, start, stop) !== 0) {
      // Within this step: byte by byte.
      while (start < stop && first[start] === second[start]) start++;
      return start;
    }
    start = stop;
  }
  return end;
}

/** The start of the UTF-8 character at or before `index`, so a cut never splits one. */
function characterStart(bytes: Buffer, index: number): number {
  let start = Math.min(index, bytes.length);
  while (start > 0 && start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start--;
  return start;
}
