import { parseArgs } from 'node:util';
import { type StrategyUnderTest, strategiesUnderTest } from './strategies-under-test.js';

/** What a check run was asked for on the command line. */
export interface RunOptions {
  /** Generated requests or conversations per case (`--runs N`). */
  runs: number;
  /** `--seed S`, or one drawn from the clock. */
  seed: number;
  /** The strategies whose name holds `--only` and not `--skip`. */
  strategies: readonly StrategyUnderTest[];
  /** The values of the check's own flags. */
  flags: Readonly<Record<string, string | undefined>>;
}

/**
 * Reads `--runs`, `--seed`, `--only` and the check's own string flags (`--skip` picks strategies out too),
 * refusing any other flag.
 */
export function readRunOptions(defaultRuns: number, ownFlags: readonly string[]): RunOptions {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: String(defaultRuns) },
      seed: { type: 'string' },
      only: { type: 'string' },
      ...Object.fromEntries(ownFlags.map((flag) => [flag, { type: 'string' as const }])),
    },
  });
  const flags = values as Record<string, string | undefined>;
  const { only, skip } = flags;
  return {
    runs: Number(values.runs),
    seed: values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed),
    strategies: strategiesUnderTest.filter(
      ({ name }) =>
        (only === undefined || name.includes(only)) && (skip === undefined || !name.includes(skip)),
    ),
    flags,
  };
}
