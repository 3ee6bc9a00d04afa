import {
  assertValidHistory,
  CompactionAbortedError,
  type CompactionInput,
  type CompactionOutput,
  type CompactionStrategy,
  InvalidOptionsError,
  type Provider,
  textOf,
} from '@compaction/core';
import { separateJoinedSummaries } from '@compaction/strategy-kit';
import { acceptSummary } from './accept-summary.js';
import { fallbackSummary } from './fallback-summary.js';
import { summaryLanguageCodes, summaryLanguageOf } from './languages/summary-languages.js';
import { planSummary } from './plan-summary.js';
import { requestSummary, type Summarizer } from './request-summary.js';
import {
  type ResolvedSummarizationOptions,
  resolveSummarizationOptions,
  type SummarizationOptions,
} from './summarization-options.js';
import { type SummaryOutcome, summaryDetails } from './summary-details.js';
import { summaryFormat } from './summary-format.js';
import { strategyName } from './summary-message.js';
import { checkTemplate } from './summary-template.js';

/** Settings of {@link createSummarization}: the options plus the provider that writes the summaries. */
export interface SummarizationSettings extends SummarizationOptions {
  /**
   * The summarizer. Through the registry, the compaction's configured provider is used when this is not
   * set. Not needed with `maxOutputTokens: 0`, which never calls it.
   */
  provider?: Provider;
}

/**
 * Creates the `summarization` strategy: keeps the system prompt, pinned messages, the original task, the
 * newest user request and the most recent turns verbatim, and replaces the older span with one summary,
 * written by the provider, that merges the previous round's summary and carries a deterministic artifact
 * trail (files, commands with exit status, errors). When the summarizer fails, the configured fallback
 * applies (an extractive digest, or a typed error); the input history is never lost.
 *
 * Throws {@link InvalidOptionsError} for invalid options and when no provider is given (unless
 * `maxOutputTokens` is 0: no summary text, the trail alone).
 */
export function createSummarization(settings: SummarizationSettings = {}): CompactionStrategy {
  const { provider, ...rest } = settings;
  const options = resolveSummarizationOptions(rest);
  if (options.template !== undefined) checkTemplate(options.template);
  if (options.language !== 'auto' && summaryLanguageOf(options.language) === undefined) {
    throw new InvalidOptionsError({
      subject: `strategy "${strategyName}"`,
      issues: [
        {
          path: 'language',
          message: `unknown language "${options.language}": use 'auto' or one of ${summaryLanguageCodes.join(', ')}`,
        },
      ],
    });
  }
  if (provider === undefined && options.maxOutputTokens > 0) {
    throw new InvalidOptionsError({
      subject: `strategy "${strategyName}"`,
      issues: [
        {
          path: 'provider',
          message:
            'no provider to write summaries with: pass one as createSummarization({ provider }), or configure ' +
            'the compaction\'s provider (the config\'s "provider" entry, or the provider given to ' +
            'resolveCompactionConfig / registry.resolve); or set maxOutputTokens to 0 to keep the artifact ' +
            'trail alone, without a model',
        },
      ],
    });
  }
  return {
    specificationVersion: 'v1',
    name: strategyName,
    compact: (input) => compactWithSummary(input, provider, options),
  };
}

async function compactWithSummary(
  input: CompactionInput,
  provider: Provider | undefined,
  options: ResolvedSummarizationOptions,
): Promise<CompactionOutput> {
  const { messages, counter, budget } = input;
  assertValidHistory(messages);
  if (input.abortSignal?.aborted) throw new CompactionAbortedError({ cause: input.abortSignal.reason });
  // A summary read back from a provider's format may share its message with the turn after it: as a message
  // of its own again, it is merged and replaced like any earlier summary.
  const separated = separateJoinedSummaries(messages);
  // The language is the user's: read from the whole history, so it stays the same from round to round.
  const format = summaryFormat(options, separated);
  const summarizer: Summarizer = { provider, options, ...format };
  const decision = planSummary(
    separated === messages ? input : { ...input, messages: separated },
    options,
    format.language,
  );
  if (decision.kind === 'no-summary') {
    // With nothing changed, the history goes back as it came, not split.
    const { output } = decision;
    const unchanged =
      output.messages.length === separated.length &&
      output.messages.every((message, index) => message === separated[index]);
    return separated !== messages && unchanged ? { ...output, messages: [...messages] } : output;
  }
  const { plan } = decision;
  const answer = await requestSummary(plan, summarizer, input);
  const accepted =
    answer.failure === undefined
      ? acceptSummary(plan, answer.text, options.placement, counter, budget)
      : { failure: answer.failure };
  const outcome: SummaryOutcome =
    accepted.failure === undefined
      ? { summary: accepted.summary, shortened: accepted.shortened, failure: undefined }
      : {
          summary: fallbackSummary(plan, accepted.failure, options, counter, budget),
          shortened: false,
          failure: accepted.failure,
        };
  return {
    messages: outcome.summary.messages,
    summary: textOf(outcome.summary.summary),
    details: summaryDetails(plan, answer, outcome, options.maxOutputTokens === 0),
    ...(plan.archived === undefined ? {} : { archived: plan.archived }),
  };
}
