/** The evaluation figures of bench/README.md, written from the saved summary of `pnpm evaluate`. */
import { resultsFile } from '../results-file.js';
import { type LeverMeasure, summarizerCallsNote } from './cost-report.js';
import type { WorkingStateSummary } from './working-state.js';
import { workingStateTable } from './working-state-report.js';

export const evaluationSectionName = 'evaluation-figures';

/** One policy at one window, on the coding transcripts that need compaction there. */
export interface LeverFigure {
  window: string;
  policy: string;
  retention: number;
  /** Probes kept or reachable through a recall handle in the final context. */
  recoverable: number;
  billedRatio: number;
  /** Billed with caching, with the recall calls that bring back the recoverable probes. */
  billedWithRecallRatio: number;
  /** The summarizer's calls, as a share of no compaction's bill. */
  summarizerShare: number;
  /** Of those, the part billed uncached (a transcript rather than the conversation). */
  summarizerUncachedShare: number;
  inputRatio: number;
}

/** The figure of one measured lever policy. */
export function leverFigure(measure: LeverMeasure): LeverFigure {
  return {
    window: measure.window,
    policy: measure.policy.name,
    retention: measure.retention,
    recoverable: measure.recoverable,
    billedRatio: measure.billedRatio,
    billedWithRecallRatio: measure.billedWithRecallRatio,
    summarizerShare: measure.shares.summarizer,
    summarizerUncachedShare: measure.shares.summarizerUncached,
    inputRatio: measure.inputRatio,
  };
}

/** What `pnpm evaluate` saves for the README. */
export interface EvaluationSummary {
  window: string;
  transcripts: string[];
  requiredRetention: number;
  requiredBilling: number;
  best: {
    policy: string;
    kept: number;
    total: number;
    retention: number;
    billedRatio: number;
    inputRatio: number;
    meetsWithCaching: boolean;
  };
  levers: LeverFigure[];
  /** At the verdict's window, the cheapest at the bar's retention that calls the summarizer, and with recall. */
  floor: { window: string; summarizing?: LeverFigure; withRecall?: LeverFigure };
  /** The working-state probes (plan, file state, language) with and without the features. */
  workingState?: WorkingStateSummary;
}

/** Where `pnpm evaluate` saves the figures the README shows. */
export const evaluationSummaryFile = resultsFile<EvaluationSummary>('evaluation-summary.json');

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
// Three decimals where the figure is held to the bar: 0.452 rounds to 0.45, which would read as met.
const times = (value: number, decimals = 2) => `${value.toFixed(decimals)}×`;

/** The verdict line and the levers' table. */
export function evaluationReadmeFigures(summary: EvaluationSummary): string {
  const { best, floor } = summary;
  const kept = `${Math.round(summary.requiredRetention * 100)}%`;
  const summarizing = floor.summarizing;
  const withRecall = floor.withRecall;
  return [
    `**Verdict** (coding transcripts that need compaction at ${summary.window}: ${summary.transcripts.join(', ')}; ` +
      'retention is the share of probes the final context holds, recall not counted): ' +
      `the best policy is **${best.policy}**, keeping ${percent(best.retention)} of the probes (${best.kept} of ${best.total}) ` +
      `and billing ${times(best.billedRatio, 3)} no compaction with prompt caching (${times(best.inputRatio)} without); ` +
      `the bar (at least ${kept} kept, at most ${times(summary.requiredBilling)} billed with caching) is ` +
      `${best.meetsWithCaching ? 'met' : 'not met'}.` +
      (summarizing === undefined
        ? ''
        : ` Calling a summarizer, the floor is ${times(summarizing.billedRatio)} (**${summarizing.policy}**, ${percent(summarizing.retention)} kept): ` +
          `${summarizerCallsNote({ summarizer: summarizing.summarizerShare, summarizerUncached: summarizing.summarizerUncachedShare })}, ` +
          `${percent(summarizing.summarizerShare)} of no compaction’s bill.`) +
      (withRecall === undefined
        ? ''
        : ` Counting the recall calls that bring back what the context names a handle for, the cheapest at ${kept} is ` +
          `${withRecall.policy} at ${times(withRecall.billedWithRecallRatio)} (${percent(withRecall.recoverable)} with recall).`),
    '',
    '| window | policy | retention | billed with caching ×none | retention with recall | billed with recall ×none | without caching ×none |',
    '|---|---|--:|--:|--:|--:|--:|',
    ...summary.levers.map(
      (lever) =>
        `| ${lever.window} | ${lever.policy} | ${percent(lever.retention)} | ${times(lever.billedRatio)} | ` +
        `${percent(lever.recoverable)} | ${times(lever.billedWithRecallRatio)} | ${times(lever.inputRatio)} |`,
    ),
    ...(summary.workingState === undefined ? [] : ['', ...workingStateFigures(summary.workingState)]),
  ].join('\n');
}

/** The working-state line and table: plan, file state and language with and without the features. */
function workingStateFigures(workingState: WorkingStateSummary): string[] {
  return [
    `**Working state** (at ${workingState.window}, at every compaction, on the same transcripts with plan calls written in ` +
      'by script, and the user turns of one translated by script; method in `results/evaluation.md`): the latest ' +
      'plan’s items with their status, the last state of every file read or changed, and whether the summary is in ' +
      "the user's language, with the features (the defaults) and without them.",
    '',
    workingStateTable(workingState),
  ];
}
