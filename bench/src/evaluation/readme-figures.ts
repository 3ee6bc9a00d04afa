/** The evaluation figures of bench/README.md, written from the saved summary of `pnpm evaluate`. */
import { resultsFile } from '../results-file.js';

export const evaluationSectionName = 'evaluation-figures';

/** One policy at one window, on the coding transcripts that need compaction there. */
export interface LeverFigure {
  window: string;
  policy: string;
  retention: number;
  /** Probes kept or reachable through a recall handle in the final context. */
  recoverable: number;
  billedRatio: number;
  inputRatio: number;
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
}

/** Where `pnpm evaluate` saves the figures the README shows. */
export const evaluationSummaryFile = resultsFile<EvaluationSummary>('evaluation-summary.json');

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
const times = (value: number) => `${value.toFixed(2)}×`;

/** The verdict line and the levers' table. */
export function evaluationReadmeFigures(summary: EvaluationSummary): string {
  const { best } = summary;
  return [
    `**Verdict** (coding transcripts that need compaction at ${summary.window}: ${summary.transcripts.join(', ')}): ` +
      `the best policy is **${best.policy}**, keeping ${percent(best.retention)} of the probes (${best.kept} of ${best.total}) ` +
      `and billing ${times(best.billedRatio)} no compaction with prompt caching (${times(best.inputRatio)} without); ` +
      `the bar (at least ${percent(summary.requiredRetention)} kept, at most ${times(summary.requiredBilling)} billed with caching) is ` +
      `${best.meetsWithCaching ? 'met' : 'not met'}.`,
    '',
    '| window | policy | retention | recoverable | billed with caching ×none | without caching ×none |',
    '|---|---|--:|--:|--:|--:|',
    ...summary.levers.map(
      (lever) =>
        `| ${lever.window} | ${lever.policy} | ${percent(lever.retention)} | ${percent(lever.recoverable)} | ` +
        `${times(lever.billedRatio)} | ${times(lever.inputRatio)} |`,
    ),
  ].join('\n');
}
