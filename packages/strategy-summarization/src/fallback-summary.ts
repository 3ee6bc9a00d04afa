import { BudgetUnreachableError, type CompactionBudget, type TokenCounter } from '@compaction/core';
import { type AssembledSummary, assembleSummary, fitTrail } from './assemble-summary.js';
import { SummarizationFailedError } from './errors/summarization-failed-error.js';
import { extractiveDigest } from './extractive-digest.js';
import type { SummaryPlan } from './plan-summary.js';
import type { ResolvedSummarizationOptions } from './summarization-options.js';
import type { SummaryFailure } from './summary-failure.js';
import { minimumSummaryTokens, separatorTokens } from './summary-limits.js';

/**
 * What happens when the summarizer fails or its summary does not fit: with `fallback: 'error'`, a
 * `SummarizationFailedError`; otherwise the history with an extractive digest in the summary's place. Without
 * the LLM, the trail comes first: the digest gets the room it leaves, if that can say anything. Throws
 * `BudgetUnreachableError` when even the digest does not fit the limit.
 */
export function fallbackSummary(
  plan: SummaryPlan,
  failure: SummaryFailure,
  options: Pick<ResolvedSummarizationOptions, 'fallback' | 'maxOutputTokens' | 'placement'>,
  counter: TokenCounter,
  budget: CompactionBudget,
): AssembledSummary {
  // With `maxOutputTokens: 0` no summary text is asked for, so its absence is no failure.
  if (options.fallback === 'error' && options.maxOutputTokens > 0)
    throw new SummarizationFailedError(failure);
  const countText = (text: string) => counter.estimator.countText(text);
  const trail = fitTrail(plan, 0, countText);
  const digestTokens = Math.min(
    plan.summaryRoom - countText(trail.text) - separatorTokens,
    options.maxOutputTokens,
  );
  const digest =
    digestTokens < minimumSummaryTokens
      ? ''
      : extractiveDigest({
          task: plan.task,
          latestRequest: plan.latestRequest,
          previousSummary: plan.previous.text,
          evicted: plan.evicted,
          language: plan.language,
          tokens: digestTokens,
          countText,
        });
  // With no room for a digest, the earlier summary's text still rides in the metadata, so a later round with
  // more room merges it instead of losing it.
  const carriedText = digest === '' ? (plan.previous.text ?? '') : digest;
  const summary = assembleSummary(
    plan,
    // With `maxOutputTokens: 0` nothing fell back: the trail alone is what the options asked for.
    { text: digest, trail, fallback: options.maxOutputTokens > 0, carriedText },
    options.placement,
    counter,
  );
  if (summary.tokens > budget.limit) {
    throw new BudgetUnreachableError({
      target: budget.target,
      best: summary.tokens,
      limit: budget.limit,
      reason: 'even the extractive digest does not fit',
    });
  }
  return summary;
}
