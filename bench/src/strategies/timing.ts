/**
 * Timing helpers for the strategy benchmark: medians of runs of several contenders timed in turns, after the
 * same untimed warm-up for each, so that a ratio compares code measured in the same heap and JIT state.
 */

/** The middle value of `values` (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * One contender: called untimed before each run (for example, to make a fresh token counter for a cold run),
 * it returns the work to time.
 */
export type Contender = () => () => unknown;

/**
 * Untimed rounds first, so the timed ones measure optimized code rather than the first, interpreted calls:
 * at least this many rounds, and more until {@link warmUpMilliseconds} have passed. Three or ten were not
 * enough: on the generated history `pruneMessages` takes about 3.3 ms for its first ~35 calls and 1.1 ms after,
 * so with 10 rounds the bench caught it at 3.7 ms beside warm masking and at 1.3 ms beside cold masking, the
 * very same work. With 40 rounds and 200 ms, every ratio matched a warm-up of 80 rounds and 400 ms within
 * run-to-run noise, so more warm-up would only lengthen the bench.
 */
export const warmUpRounds = 40;

/**
 * A round count alone does not settle contenders that take microseconds: on the transcripts, after 10 rounds
 * `pruneMessages` was still two to five times slower than after 30 (django: 0.23 to 0.44 ms against 0.065 ms;
 * it re-optimizes for message shapes it has not seen), and with 100 ms the first transcript still was.
 */
export const warmUpMilliseconds = 200;

/**
 * Median milliseconds of each contender over `runs` rounds, after the untimed warm-up (see
 * {@link warmUpRounds}). Every round runs each contender once, in the order given and then reversed
 * (ours, peer, peer, ours...), so both see the same heap, JIT and machine load; timing one after the other instead left a peer in
 * a different state from ours and skewed the ratio several times over. The warm-up rounds are interleaved the
 * same way. No forced garbage collection between runs: a collection that shrinks the heap makes the next run
 * pay for regrowing it, which an agent loop does not.
 */
export async function interleavedMedians<Name extends string>(
  contenders: Record<Name, Contender>,
  runs: number,
): Promise<Record<Name, number>> {
  const entries = Object.entries(contenders) as Array<[Name, Contender]>;
  const warmUpStart = performance.now();
  for (let round = 0; round < warmUpRounds || performance.now() - warmUpStart < warmUpMilliseconds; round++) {
    for (const [, prepare] of entries) await prepare()();
  }
  const samples = new Map<Name, number[]>(entries.map(([name]) => [name, []]));
  const reversed = [...entries].reverse();
  for (let round = 0; round < runs; round++) {
    // Every other round in reverse order (ours, peer, peer, ours...): the garbage one leaves is collected in
    // the other's runs as often as the other way round.
    for (const [name, prepare] of round % 2 === 0 ? entries : reversed) {
      const work = prepare();
      const start = performance.now();
      await work();
      samples.get(name)!.push(performance.now() - start);
    }
  }
  return Object.fromEntries(entries.map(([name]) => [name, median(samples.get(name)!)])) as Record<
    Name,
    number
  >;
}
