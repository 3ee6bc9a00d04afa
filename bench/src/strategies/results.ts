/**
 * The saved results of the strategy benchmark: `bench/results/strategies.json`. The Markdown report and the
 * figures in bench/README.md are written from it, so they never disagree with what was measured.
 */
import { resultsFile } from '../results-file.js';
import type { Measurement } from './timing.js';

/** A contender's medians with a warm and with a cold counter. */
export interface Timing {
  warm: Measurement;
  cold: Measurement;
}

/** Contenders timed in turns on one job, by name. */
export type TimedGroup = Record<string, Timing>;

/** The measurements on one history. */
export interface HistoryResult {
  name: string;
  messages: number;
  tokens: number;
  /** Target of the strategies, `trimMessages` and the Compactor path: half the history. */
  target: number;
  half: TimedGroup;
  /** Target of masking and `pruneMessages`: the tokens of the history with every old tool result masked. */
  allOldTarget: number;
  allOld: TimedGroup;
  /** Contenders not posed the job on this history, with why it is beyond them (none of them is timed). */
  outOfReach: Record<string, string>;
}

export interface StrategyResults {
  node: string;
  cores: number;
  /** One-minute load average at the start. */
  loadAverage: number;
  date: string;
  /** Generated coding histories of growing size. */
  sizes: HistoryResult[];
  /** The real transcripts, or `null` when they were not found. */
  transcripts: HistoryResult[] | null;
  /** One line for each contender whose output was refused. */
  failures: string[];
}

export const strategyResultsFile = resultsFile<StrategyResults>('strategies.json');
