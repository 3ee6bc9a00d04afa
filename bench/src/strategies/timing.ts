/** Timing helpers for the strategy benchmark: medians of runs after a few untimed warm-up runs. */

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Untimed runs first, so the timed ones measure compiled code rather than the first, interpreted calls. */
const warmUpRuns = 3;

/**
 * Median milliseconds of `work` over `runs` runs, after {@link warmUpRuns} untimed ones. `prepare` runs
 * before each run, untimed (for example, to make a fresh token counter for a cold run). No forced garbage
 * collection between runs: a collection that shrinks the heap makes the next run pay for regrowing it, which
 * an agent loop does not.
 */
export async function medianMilliseconds<T>(
  runs: number,
  prepare: () => T,
  work: (prepared: T) => unknown,
): Promise<number> {
  for (let run = 0; run < warmUpRuns; run++) await work(prepare());
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const prepared = prepare();
    const start = performance.now();
    await work(prepared);
    samples.push(performance.now() - start);
  }
  return median(samples);
}
