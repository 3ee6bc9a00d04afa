/** Timing helpers: medians of several runs, each long enough for the clock to be meaningful. */

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Median seconds per call of `work` over `runs` runs. Each run repeats the call until at least
 * `minimumSeconds` have passed, so fast work is not lost in the clock's resolution.
 */
export function secondsPerCall(work: () => unknown, runs = 5, minimumSeconds = 0.05): number {
  work();
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    let calls = 0;
    const start = performance.now();
    let elapsed = 0;
    do {
      work();
      calls++;
      elapsed = (performance.now() - start) / 1000;
    } while (elapsed < minimumSeconds);
    samples.push(elapsed / calls);
  }
  return median(samples);
}

/** UTF-8 size of texts in megabytes (10^6 bytes). */
export function megabytes(texts: readonly string[]): number {
  let bytes = 0;
  for (const text of texts) bytes += Buffer.byteLength(text, 'utf8');
  return bytes / 1e6;
}
