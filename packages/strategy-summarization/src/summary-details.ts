import type { JSONObject } from '@compaction/core';
import type { AssembledSummary } from './assemble-summary.js';
import type { SummaryPlan } from './plan-summary.js';
import type { SummaryAnswer } from './request-summary.js';
import type { SummaryFailure } from './summary-failure.js';

/** How the summary came about, besides the summary itself. */
export interface SummaryOutcome {
  summary: AssembledSummary;
  /** Whether the summarizer's text was shortened in the middle to fit. */
  shortened: boolean;
  /** Why the summarizer's text was not used (the summary is then the extractive digest). */
  failure: SummaryFailure | undefined;
}

/**
 * The details a summarizing compaction reports: what it summarized and kept, the calls, the trail, any fallback.
 * With `trailOnly` (`maxOutputTokens: 0`) no summary text was asked for: its absence is reported as `reason`,
 * not as a fallback, since it is what the options chose.
 */
export function summaryDetails(
  plan: SummaryPlan,
  answer: SummaryAnswer,
  outcome: SummaryOutcome,
  trailOnly: boolean,
): JSONObject {
  const { summary, failure } = outcome;
  return {
    summarized: true,
    round: plan.round,
    summarizedMessages: plan.evicted.length,
    mergedSummaries: plan.mergedSummaries,
    keptRecentTurns: plan.keptRecentTurns,
    ...(plan.shortenedTurn ? { shortenedTurns: 1 } : {}),
    summaryRole: summary.role,
    summarizerCalls: answer.calls,
    ...(answer.request === undefined ? {} : { summarizerRequest: answer.request }),
    chunks: answer.chunks,
    largestSummarizerRequest: answer.largestRequest,
    trail: {
      files: summary.trail.files.length,
      commands: summary.trail.commands.length,
      errors: summary.trail.errors.length,
      folded: summary.trail.folded,
    },
    ...(outcome.shortened ? { summaryShortened: true } : {}),
    ...(failure === undefined
      ? {}
      : trailOnly
        ? { reason: failure.reason }
        : { fallback: 'extractive', reason: failure.reason, failure: failure.message }),
  };
}
