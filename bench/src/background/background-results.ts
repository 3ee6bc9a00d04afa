/** The saved results of the background compaction benchmark: `bench/results/background.json`. */
import { resultsFile } from '../results-file.js';

/** What one mode measured, over one transcript or all. */
export interface BackgroundModeResult {
  /** `in line` (no `background` setting) or `background`. */
  mode: 'in line' | 'background';
  /** The transcript's name, or `all` for every transcript together. */
  transcript: string;
  /** `prepare` calls given a history over the trigger: where the trigger fired, whatever `prepare` did. */
  triggerCalls: number;
  /** Of those, the calls that returned a compacted history, and those sent as they were (`background-pending`). */
  compactions: number;
  pending: number;
  /** Milliseconds `prepare` blocked at the trigger calls: median and 99th percentile (nearest rank). */
  p50Milliseconds: number;
  p99Milliseconds: number;
  /**
   * Of the trigger calls, those given a history over the limit (one turn carried it past the room between
   * the trigger and the limit): how many, and the 99th percentile of the time blocked; and the 99th
   * percentile of the others, between the trigger and the limit.
   */
  overLimitCalls: number;
  overLimitP99Milliseconds: number;
  underLimitP99Milliseconds: number;
  /** Milliseconds `prepare` blocked under the trigger, 99th percentile: starting a job must not block. */
  underTriggerP99Milliseconds: number;
  /** Calls to the summarizer, used or not. */
  summarizerCalls: number;
  /** Background jobs used at the trigger, dropped, and the time they saved in all (their `used` events). */
  used: number;
  discarded: number;
  savedMilliseconds: number;
  /** The evaluation's retention probes found in the final context: how many there were, how many were kept. */
  probes: number;
  keptProbes: number;
  /** The bill in dollars: the requests sent (prompt caching), the summarizer's calls (every one made), both. */
  requestsCost: number;
  summarizerCost: number;
  cost: number;
  /** Input tokens of every request sent, and the largest request. */
  inputTokens: number;
  peakRequestTokens: number;
}

/** The goals, over all transcripts of a setting, each met or not. */
export interface BackgroundChecks {
  /** Background p99 at the trigger below this many milliseconds. */
  p99GoalMilliseconds: number;
  p99Met: boolean;
  /** The same goal over the trigger calls given a history still under the limit, and how many were over it. */
  underLimitP99Met: boolean;
  overLimitCalls: number;
  /** Background retention within this many points of in line. */
  retentionPoints: number;
  retentionDifferencePoints: number;
  retentionMet: boolean;
  /** Background bill at most this share above in line's. */
  billShare: number;
  billDifferenceShare: number;
  billMet: boolean;
}

/** A transcript replayed in one setting, with what its window was sized from. */
export interface BackgroundTranscript {
  name: string;
  modelCalls: number;
  /** The replayed history's tokens, and the history the last `prepare` is given when nothing was compacted. */
  historyTokens: number;
  lastCallTokens: number;
  /** The largest turn the transcript adds between two model calls. */
  largestTurnTokens: number;
  /** Its context window (the limit: no output reserved, no margin) and trigger, in tokens. */
  contextWindow: number;
  triggerTokens: number;
}

/** One setting of record: how each window was sized, the transcripts replayed in it, what they measured. */
export interface BackgroundSettingResult {
  name: string;
  /** How the window is sized, in words. */
  description: string;
  transcripts: BackgroundTranscript[];
  /** The transcripts left out of this setting: their trigger would not fire, nothing to time. */
  leftOut: BackgroundTranscript[];
  modes: BackgroundModeResult[];
  checks: BackgroundChecks;
}

export interface BackgroundResults {
  node: string;
  cores: number;
  date: string;
  /** The scripted summarizer's delay before it answers, and the simulated model call between two prepares. */
  summarizerMilliseconds: number;
  modelCallMilliseconds: number;
  /** The budget's trigger and target and the `prepareAt` of the background mode, as fractions of the limit. */
  trigger: number;
  target: number;
  prepareAt: number;
  /** Each setting of record, all measured in the same run. */
  settings: BackgroundSettingResult[];
}

export const backgroundResultsFile = resultsFile<BackgroundResults>('background.json');
