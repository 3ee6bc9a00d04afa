/** The saved results of the CLI startup benchmark: `bench/results/cli.json`. */
import { resultsFile } from '../results-file.js';

export interface CliResults {
  node: string;
  cores: number;
  /** One-minute load average at the start: the medians move with it. */
  loadAverage: number;
  date: string;
  /** Processes started for each median. */
  runs: number;
  /** The input of `compaction count`, relative to the transcripts folder. */
  input: string;
  /** Median wall-clock milliseconds from spawning `node -e 0` to its exit. */
  nodeMilliseconds: number;
  /** Median wall-clock milliseconds from spawning `compaction count <input>` to its exit. */
  cliMilliseconds: number;
  /** Median milliseconds of the first `toLocaleString('en-US')` of a process. */
  firstToLocaleStringMilliseconds: number;
  /** Median milliseconds of making the first `Intl.NumberFormat('en-US')` of a process and formatting. */
  firstNumberFormatMilliseconds: number;
}

export const cliResultsFile = resultsFile<CliResults>('cli.json');
