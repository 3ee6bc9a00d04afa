/** The saved results of the background compaction benchmark: `bench/results/background.json`. */
import { resultsFile } from '../results-file.js';

/** How long `prepare` blocked at the trigger in one mode, over one transcript or all. */
export interface BackgroundModeResult {
  /** `in line` (no `background` setting) or `background`. */
  mode: 'in line' | 'background';
  /** The transcript's name, or `all` for every transcript together. */
  transcript: string;
  /** `prepare` calls that returned a compacted history: the trigger fired. */
  compactions: number;
  /** Milliseconds `prepare` blocked at those calls: median and 99th percentile (nearest rank). */
  p50Milliseconds: number;
  p99Milliseconds: number;
  /** Milliseconds `prepare` blocked under the trigger, 99th percentile: starting a job must not block. */
  underTriggerP99Milliseconds: number;
  /** Calls to the summarizer, used or not. */
  summarizerCalls: number;
  /** Background jobs used at the trigger, dropped, and the time they saved in all (their `used` events). */
  used: number;
  discarded: number;
  savedMilliseconds: number;
}

export interface BackgroundResults {
  node: string;
  cores: number;
  date: string;
  /** The scripted summarizer's delay before it answers, and the simulated model call between two prepares. */
  summarizerMilliseconds: number;
  modelCallMilliseconds: number;
  /** The transcripts replayed, each with the model calls replayed and its context window. */
  transcripts: { name: string; modelCalls: number; contextWindow: number }[];
  /** The budget's trigger and target and the `prepareAt` of the background mode, as fractions of the limit. */
  trigger: number;
  target: number;
  prepareAt: number;
  modes: BackgroundModeResult[];
}

export const backgroundResultsFile = resultsFile<BackgroundResults>('background.json');
