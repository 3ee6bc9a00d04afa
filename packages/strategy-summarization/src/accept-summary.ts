import type { CompactionBudget, TokenCounter } from '@compaction/core';
import { type AssembledSummary, assembleSummary, fitTrail } from './assemble-summary.js';
import type { SummaryPlan } from './plan-summary.js';
import { shortenMiddleToTokens } from './shorten-text.js';
import type { SummaryPlacement } from './summarization-options.js';
import type { SummaryFailure } from './summary-failure.js';
import { minimumSummaryTokens, separatorTokens, shortenableOverflow } from './summary-limits.js';

/** The history with the summarizer's summary (shortened to fit, or not), or why the summary cannot be used. */
export type AcceptedSummary =
  | { summary: AssembledSummary; shortened: boolean; failure?: undefined }
  | { summary?: undefined; failure: SummaryFailure };

/**
 * Puts the summarizer's text into the new history. The summarizer was asked for at most the plan's output
 * limit, but its tokenizer is not ours. The trail is never folded for the text: a text slightly over the room
 * the trail leaves is shortened in the middle; one far over it ignored the limit, and fails as too long, as
 * does a history that the summary brings over the limit.
 */
export function acceptSummary(
  plan: SummaryPlan,
  text: string,
  placement: SummaryPlacement,
  counter: TokenCounter,
  budget: CompactionBudget,
): AcceptedSummary {
  const countText = (value: string) => counter.estimator.countText(value);
  const answerTokens = countText(text);
  const trail = fitTrail(plan, answerTokens, countText);
  const bodyRoom = plan.summaryRoom - countText(trail.text) - separatorTokens;
  const fits = answerTokens <= bodyRoom;
  const shortenable =
    answerTokens <= bodyRoom * (1 + shortenableOverflow) && bodyRoom >= minimumSummaryTokens;
  if (!fits && !shortenable) {
    const message = `the summary has ${answerTokens} tokens; the trail leaves room for ${Math.max(0, bodyRoom)}`;
    return { failure: { reason: 'too-long', message } };
  }
  let shortened = false;
  const assemble = (room: number) => {
    shortened = answerTokens > room;
    const body = shortened ? shortenMiddleToTokens(text, room, countText) : text;
    return assembleSummary(
      plan,
      { text: body, trail, fallback: false, carriedText: body },
      placement,
      counter,
    );
  };
  let room = bodyRoom;
  let summary = assemble(room);
  // Counts are not additive: the assembled message can count a few tokens more than the texts it joins. A
  // summary over the target by such a margin is shortened by what it is over, a few times at most.
  for (let attempt = 0; attempt < 3 && summary.tokens > budget.target; attempt++) {
    const over = summary.tokens - budget.target;
    if (room - over < minimumSummaryTokens || over > room * shortenableOverflow) break;
    room -= over;
    summary = assemble(room);
  }
  if (summary.tokens > budget.limit) {
    const message = `the summary brought the history to ${summary.tokens} tokens, over the limit of ${budget.limit}`;
    return { failure: { reason: 'too-long', message } };
  }
  return { summary, shortened };
}
