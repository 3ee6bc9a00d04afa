/** A candidate built for an allowance, and what it counts. */
export interface Measured<T> {
  /** What was built. */
  value: T;
  /** What it counts. */
  tokens: number;
}

/** Tries of {@link fitToRoom}; each brings the result closer to the room. */
const attempts = 8;
/** How close under the room a try must come to stop early: a share of the room. */
const closeEnough = 0.01;

/**
 * Finds, in a few measured tries, the largest allowance whose result counts at most `room` tokens, from a
 * first guess: each try is corrected by what the last one missed by (a result's count follows its allowance
 * about one for one). A miss steps back at least 1% of the room, doubling with each miss, since cuts that
 * snap to line breaks ignore smaller changes; once an allowance that fits and one that misses are known, the
 * tries stay between them, first just under the one that missed. Returns the fitting result closest to the
 * room, or undefined when none fitted.
 */
export function fitToRoom<T>(
  room: number,
  firstGuess: number,
  build: (allowance: number) => Measured<T>,
): Measured<T> | undefined {
  let best: Measured<T> | undefined;
  let fitted: number | undefined;
  let missed: number | undefined;
  let misses = 0;
  let allowance = firstGuess;
  for (let attempt = 0; attempt < attempts && allowance > 0; attempt++) {
    const candidate = build(allowance);
    let next: number;
    if (candidate.tokens <= room) {
      if (best === undefined || candidate.tokens > best.tokens) best = candidate;
      if (room - candidate.tokens <= room * closeEnough) break;
      fitted = allowance;
      next = allowance + (room - candidate.tokens);
      // Just under the allowance that missed, when the correction would reach it again.
      if (missed !== undefined && next >= missed) {
        next = Math.max((fitted + missed) / 2, missed - room * closeEnough);
      }
    } else {
      missed = allowance;
      next = allowance - Math.max(candidate.tokens - room, room * closeEnough * 2 ** misses);
      misses++;
      if (fitted !== undefined) next = Math.max(next, (fitted + missed) / 2);
    }
    allowance = next;
  }
  return best;
}
