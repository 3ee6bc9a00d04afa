/** The median of some numbers (0 for none). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Median milliseconds of `work` over `runs` runs, after one untimed warm-up run. `prepare` runs untimed before
 * each run (to build a fresh strategy, for example).
 */
export async function medianMilliseconds<Prepared>(
  runs: number,
  prepare: () => Prepared,
  work: (prepared: Prepared) => Promise<unknown>,
): Promise<number> {
  await work(prepare());
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const prepared = prepare();
    const started = performance.now();
    await work(prepared);
    samples.push(performance.now() - started);
  }
  return median(samples);
}
