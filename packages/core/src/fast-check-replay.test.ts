import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/**
 * The fast-check setup every package's tests run with (config/fast-check-setup.ts): each test file's
 * properties generate from one seed, `FC_SEED` when set, and a failing property prints the command that
 * replays it.
 */
describe('fast-check seeds', () => {
  it('come from FC_SEED, or are drawn for the test file', () => {
    const { seed } = fc.readConfigureGlobal();
    expect(Number.isInteger(seed)).toBe(true);
    if (process.env.FC_SEED !== undefined) expect(seed).toBe(Number(process.env.FC_SEED));
  });

  it('generate the same values again', () => {
    // Default units: the 'binary' unit builds a table of every code point first, seconds on a loaded machine.
    const texts = fc.string({ maxLength: 40 });
    expect(fc.sample(texts, 20)).toEqual(fc.sample(texts, 20));
  });

  it('replay a failed property in a new run, from the seed the failure printed', () => {
    const first = runDemonstration(undefined);
    const printed =
      /fast-check seed (-?\d+) \(replay: FC_SEED=(-?\d+) pnpm --filter @compaction\/core test\)/.exec(first);
    expect(printed, first).not.toBeNull();
    expect(printed![2]).toBe(printed![1]);
    const replayed = runDemonstration(printed![1]);
    // The whole report is the same: the seed, the path to the counterexample, the number of values tried
    // before it failed, the counterexample and its shrinking.
    expect(report(replayed)).toEqual(report(first));
    expect(report(first)).toContain(`seed: ${printed![1]},`);
  }, 180_000);

  // Registered only inside the test above, in a run of its own (registered and not run, it would count as
  // skipped): a property that fails for any seed.
  if (process.env.FC_REPLAY_DEMONSTRATION === '1') {
    it('demonstration: a property that fails', () => {
      fc.assert(fc.property(fc.integer(), fc.string(), (number, text) => number < 1000 || text.length > 3));
    });
  }
});

/** Runs the demonstration property in a new Vitest process, with `seed` as FC_SEED when given. */
function runDemonstration(seed: string | undefined): string {
  const { FC_SEED: _seed, FC_PATH: _path, ...environment } = process.env;
  const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
  const result = spawnSync(
    process.execPath,
    [vitest, 'run', fileURLToPath(import.meta.url), '-t', 'demonstration'],
    {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: {
        ...environment,
        FC_REPLAY_DEMONSTRATION: '1',
        NO_COLOR: '1',
        ...(seed === undefined ? {} : { FC_SEED: seed }),
      },
      encoding: 'utf8',
    },
  );
  return `${result.stdout}\n${result.stderr}`;
}

/** fast-check's report of the failure: from "Property failed" to the counterexample and its shrinking. */
function report(output: string): string {
  const found =
    /Property failed after \d+ tests\n\{ seed: .*\}\nCounterexample: .*\nShrunk \d+ time\(s\)/.exec(output);
  expect(found, output).not.toBeNull();
  return found![0];
}
