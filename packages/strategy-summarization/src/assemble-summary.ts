import type { Message, TokenCounter } from '@compaction/core';
import { recallHint } from '@compaction/strategy-kit';
import type { ArtifactTrail } from './artifact-trail.js';
import type { SummaryPlan } from './plan-summary.js';
import { fitArtifactTrail } from './render-artifact-trail.js';
import type { SummaryPlacement } from './summarization-options.js';
import { separatorTokens } from './summary-limits.js';
import { placeSummary, summaryHeader, summaryMessage } from './summary-message.js';

/** The artifact trail fitted to its room, and its text. */
export interface FittedTrail {
  trail: ArtifactTrail;
  text: string;
}

/**
 * The trail fitted to the summary's room beside a body of `bodyTokens`: it keeps its reserved share, and
 * beyond it may use any room the body leaves. Its text is left out when even the folded trail is over that.
 */
export function fitTrail(
  plan: SummaryPlan,
  bodyTokens: number,
  countText: (text: string) => number,
): FittedTrail {
  // The blank lines between the text and the trail count too, or a text within its limit would not fit.
  const trailBudget = Math.max(plan.trailTokens, plan.summaryRoom - bodyTokens - separatorTokens);
  const fitted = fitArtifactTrail(plan.trail, trailBudget, countText, plan.language);
  return { trail: fitted.trail, text: countText(fitted.text) <= trailBudget ? fitted.text : '' };
}

/** The summary's body and how it was written. */
export interface SummaryBody {
  text: string;
  trail: FittedTrail;
  /** Whether the body is the extractive digest rather than the summarizer's text. */
  fallback: boolean;
  /** What the next round merges: the body, or the earlier summary's text when the digest had no room. */
  carriedText: string;
}

/** The new history with its summary, and what it counts. */
export interface AssembledSummary {
  messages: Message[];
  summary: Message;
  role: 'user' | 'assistant';
  trail: ArtifactTrail;
  tokens: number;
}

/**
 * Builds the new history: the kept messages in their order and the summary message (header, body, trail)
 * where the placement puts it. The plan and the kept messages are not changed.
 */
export function assembleSummary(
  plan: SummaryPlan,
  body: SummaryBody,
  placement: SummaryPlacement,
  counter: TokenCounter,
): AssembledSummary {
  // The first archived item is the span the summary replaces: its header names it.
  const span = plan.archived?.[0];
  const recall = span === undefined ? undefined : recallHint(span);
  const placed = placeSummary(
    placement,
    plan.kept,
    (role, position) =>
      summaryMessage({
        role,
        text: [
          summaryHeader(position, plan.round, plan.summarizedMessages, recall),
          body.text,
          body.trail.text,
        ]
          .filter((part) => part.length > 0)
          .join('\n\n'),
        round: plan.round,
        summaryText: body.carriedText,
        artifactTrail: body.trail.trail,
        summarizedMessages: plan.summarizedMessages,
        ...(body.fallback ? { fallback: 'extractive' as const } : {}),
      }),
    plan.positions,
  );
  return { ...placed, trail: body.trail.trail, tokens: counter.estimate(placed.messages) };
}
