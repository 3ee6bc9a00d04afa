import type { CompactionInput, Provider } from '@compaction/core';
import type { SummaryLanguage } from './languages/summary-language.js';
import type { SummaryPlan } from './plan-summary.js';
import { renderArtifactTrail } from './render-artifact-trail.js';
import type { ResolvedSummarizationOptions, SummarizerRequest } from './summarization-options.js';
import { summarizeInConversation } from './summarize-in-conversation.js';
import { summarizeSpan } from './summarize-span.js';
import type { RequiredSection, SummaryFailure } from './summary-failure.js';
import { minimumSummaryTokens } from './summary-limits.js';

/** Who writes the summaries, and how. */
export interface Summarizer {
  /** Undefined only with `maxOutputTokens: 0`, which never asks. */
  provider: Provider | undefined;
  options: ResolvedSummarizationOptions;
  template: string;
  requiredSections: readonly RequiredSection[];
  /** The summary's language. */
  language: SummaryLanguage;
}

/** The summarizer's answer, or why there is none, with what asking it took. */
export type SummaryAnswer = {
  calls: number;
  chunks: number;
  /**
   * With `summarizerRequest: 'continuation'`, what was sent: the conversation, or the transcript when the
   * conversation did not fit the summarizer's window. Undefined otherwise.
   */
  request?: SummarizerRequest;
  /** Tokens of the largest request sent (0 when none was). */
  largestRequest: number;
} & ({ text: string; failure?: undefined } | { text?: undefined; failure: SummaryFailure });

/**
 * Asks the summarizer for the summary of the plan's evicted span, merging the earlier summaries, within the
 * plan's output limit. Does not ask when the plan leaves too little room for a summary to say anything.
 */
export async function requestSummary(
  plan: SummaryPlan,
  summarizer: Summarizer,
  input: Pick<CompactionInput, 'messages' | 'counter' | 'instructions' | 'abortSignal' | 'observe'>,
): Promise<SummaryAnswer> {
  const { options } = summarizer;
  if (plan.summaryTokens < minimumSummaryTokens || summarizer.provider === undefined) {
    const message =
      options.maxOutputTokens === 0
        ? 'maxOutputTokens is 0: no summary text is written'
        : `only ${plan.summaryTokens} tokens are left for the summary`;
    return { calls: 0, chunks: 0, largestRequest: 0, failure: { reason: 'no-room', message } };
  }
  const instructions = [options.instructions, input.instructions]
    .filter((text): text is string => text !== undefined && text.trim().length > 0)
    .join('\n');
  const span = {
    provider: summarizer.provider,
    model: options.model,
    previousSummary: plan.previous.text,
    artifactTrail: renderArtifactTrail(plan.trail, summarizer.language),
    instructions: instructions.length > 0 ? instructions : undefined,
    round: plan.round,
    template: summarizer.template,
    requiredSections: summarizer.requiredSections,
    language: summarizer.language,
    outputTokens: plan.summaryTokens,
    temperature: options.temperature,
    toolOutputCharacters: options.toolOutputCharacters,
    inputShare: options.summarizerInputShare,
    estimator: input.counter.estimator,
    abortSignal: input.abortSignal,
    observe: input.observe,
  };
  const continued =
    options.summarizerRequest === 'continuation'
      ? await summarizeInConversation({ ...span, conversation: input.messages, evicted: plan.evicted })
      : undefined;
  const outcome = continued ?? (await summarizeSpan({ ...span, messages: plan.evicted }));
  const { calls, chunks } = outcome;
  const largestRequest = Math.max(0, ...outcome.inputTokens);
  const request: Pick<SummaryAnswer, 'request'> =
    options.summarizerRequest === 'continuation'
      ? { request: continued === undefined ? 'transcript' : 'continuation' }
      : {};
  return outcome.failure === undefined
    ? { calls, chunks, largestRequest, ...request, text: outcome.text }
    : { calls, chunks, largestRequest, ...request, failure: outcome.failure };
}
