/**
 * Timing helpers for the strategy benchmark: medians of runs of several contenders timed in turns, after the
 * same untimed warm-up for each, so that a ratio compares code measured in the same heap and JIT state. A
 * contender's output is checked before its runs count.
 */

/** The middle value of `values` (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** One contender: how to run it, and what is wrong with what it returned. */
export interface Contender {
  /** Called untimed before each run (for example, to make a fresh token counter); returns the work to time. */
  prepare: () => () => unknown;
  /** What is wrong with the work's result (awaited), empty when it did the job. Called untimed. */
  problems: (output: unknown) => readonly string[];
}

/** A contender's median milliseconds, or why its output was refused (and its time not counted). */
export type Measurement = { milliseconds: number } | { problems: readonly string[] };

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
 * Where the warm-up stops even short of {@link warmUpRounds}, after {@link minimumWarmUpRounds}: a round that
 * takes seconds (`trimMessages` is quadratic, seconds per call on millions of tokens) is long enough for the
 * JIT to settle within it, and 40 of them would take the bench past its few minutes.
 */
export const warmUpCeilingMilliseconds = 3000;
export const minimumWarmUpRounds = 2;

/**
 * Median milliseconds of each contender over `runs` rounds, after the untimed warm-up (see
 * {@link warmUpRounds}). The output of a contender's first warm-up run and of its last timed run is checked;
 * a contender whose output has problems is measured no further and gets its problems instead of a time.
 * Every round runs each contender once, in the order given and then reversed (ours, peer, peer, ours...), so
 * both see the same heap, JIT and machine load; timing one after the other instead left a peer in a
 * different state from ours and skewed the ratio several times over. The warm-up rounds are interleaved the
 * same way. No forced garbage collection between runs: a collection that shrinks the heap makes the next run
 * pay for regrowing it, which an agent loop does not.
 */
export async function interleavedMedians<Name extends string>(
  contenders: Record<Name, Contender>,
  runs: number,
): Promise<Record<Name, Measurement>> {
  const refused = new Map<Name, readonly string[]>();
  const check = async (name: Name, output: unknown) => {
    const problems = contenders[name].problems(await output);
    if (problems.length > 0) refused.set(name, problems);
  };
  const active = () => (Object.keys(contenders) as Name[]).filter((name) => !refused.has(name));

  const warmUpStart = performance.now();
  for (let round = 0; ; round++) {
    const elapsed = performance.now() - warmUpStart;
    const settled = round >= warmUpRounds && elapsed >= warmUpMilliseconds;
    const ceiling = round >= minimumWarmUpRounds && elapsed >= warmUpCeilingMilliseconds;
    if (settled || ceiling) break;
    for (const name of active()) {
      const output = await contenders[name].prepare()();
      if (round === 0) await check(name, output);
    }
  }

  const samples = new Map<Name, number[]>(active().map((name) => [name, []]));
  for (let round = 0; round < runs; round++) {
    const names = active();
    // Every other round in reverse order (ours, peer, peer, ours...): the garbage one leaves is collected in
    // the other's runs as often as the other way round.
    for (const name of round % 2 === 0 ? names : names.reverse()) {
      const work = contenders[name].prepare();
      const start = performance.now();
      const output = await work();
      samples.get(name)!.push(performance.now() - start);
      if (round === runs - 1) await check(name, output);
    }
  }
  return Object.fromEntries(
    (Object.keys(contenders) as Name[]).map((name) => {
      const problems = refused.get(name);
      return [name, problems === undefined ? { milliseconds: median(samples.get(name)!) } : { problems }];
    }),
  ) as Record<Name, Measurement>;
}
