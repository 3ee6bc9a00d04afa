/** Timing helpers: medians of several runs, each long enough for the clock to be meaningful. */

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Seconds per call of `work`, repeating it until at least `minimumSeconds` have passed. */
function timeOnce(work: () => unknown, minimumSeconds: number): number {
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    work();
    calls++;
    elapsed = (performance.now() - start) / 1000;
  } while (elapsed < minimumSeconds);
  return elapsed / calls;
}

/**
 * Median seconds per call of `work` over `runs` runs. Each run repeats the call until at least
 * `minimumSeconds` have passed, so fast work is not lost in the clock's resolution.
 */
export function secondsPerCall(work: () => unknown, runs = 5, minimumSeconds = 0.05): number {
  work();
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) samples.push(timeOnce(work, minimumSeconds));
  return median(samples);
}

/** Work timed by {@link interleavedSecondsPerCall}. */
export interface TimedWork {
  work: () => unknown;
  /** Each run repeats the work until at least this long has passed. */
  minimumSeconds: number;
}

/**
 * Median seconds per call of each piece of work, timed in turns (one run of each, then the next round), so
 * every piece sees the same machine conditions and their ratio holds even when the load changes mid-run.
 */
export function interleavedSecondsPerCall<Key extends string>(
  works: Record<Key, TimedWork>,
  runs = 5,
): Record<Key, number> {
  const keys = Object.keys(works) as Key[];
  for (const key of keys) works[key].work();
  const samples = new Map<Key, number[]>(keys.map((key) => [key, []]));
  for (let run = 0; run < runs; run++) {
    for (const key of keys) samples.get(key)!.push(timeOnce(works[key].work, works[key].minimumSeconds));
  }
  return Object.fromEntries(keys.map((key) => [key, median(samples.get(key)!)])) as Record<Key, number>;
}

/** UTF-8 size of texts in megabytes (10^6 bytes). */
export function megabytes(texts: readonly string[]): number {
  let bytes = 0;
  for (const text of texts) bytes += Buffer.byteLength(text, 'utf8');
  return bytes / 1e6;
}
