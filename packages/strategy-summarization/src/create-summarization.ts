import {
  assertValidHistory,
  BudgetUnreachableError,
  CompactionAbortedError,
  type CompactionInput,
  type CompactionOutput,
  type CompactionStrategy,
  InvalidOptionsError,
  type JSONObject,
  type Message,
  type Provider,
  type Turn,
} from '@compaction/core';
import { allocateRoom } from './allocate-room.js';
import { mergeArtifactTrails } from './artifact-trail.js';
import { SummarizationFailedError } from './errors/summarization-failed-error.js';
import { extractArtifacts } from './extract-artifacts.js';
import { extractiveDigest } from './extractive-digest.js';
import { layoutHistory, selectRecentTurns } from './plan-eviction.js';
import { readPreviousSummaries } from './previous-summary.js';
import { fitArtifactTrail, renderArtifactTrail } from './render-artifact-trail.js';
import { separateReasoningTurns } from './separate-reasoning-turns.js';
import { shortenMiddleToTokens } from './shorten-text.js';
import {
  type ResolvedSummarizationOptions,
  resolveSummarizationOptions,
  type SummarizationOptions,
} from './summarization-options.js';
import { summarizeSpan } from './summarize-span.js';
import type { SummaryFailure } from './summary-failure.js';
import { placeSummary, strategyName, summaryHeader, summaryMessage } from './summary-message.js';
import { checkTemplate, defaultSummarySections, defaultSummaryTemplate } from './summary-template.js';

/** Settings of {@link createSummarization}: the options plus the provider that writes the summaries. */
export interface SummarizationSettings extends SummarizationOptions {
  /**
   * The summarizer. Through the registry, the compaction's configured provider is used when this is not
   * set.
   */
  provider?: Provider;
}

/**
 * Below this many tokens for the summary text, the LLM is not asked and no digest is written: so little text
 * would say nothing the verbatim task and the trail do not already say.
 */
const minimumSummaryTokens = 48;
/** What the blank lines between the header, the summary text and the trail may cost. */
const separatorTokens = 2;
/**
 * How far (as a share of its room) a summary may overshoot and still be shortened rather than rejected:
 * about what separates one tokenizer's count from another's.
 */
const shortenableOverflow = 0.25;

/**
 * Creates the `summarization` strategy: keeps the system prompt, pinned messages, the original task, the
 * newest user request and the most recent turns verbatim, and replaces the older span with one summary,
 * written by the provider, that merges the previous round's summary and carries a deterministic artifact
 * trail (files, commands with exit status, errors). When the summarizer fails, the configured fallback
 * applies (an extractive digest, or a typed error); the input history is never lost.
 *
 * Throws {@link InvalidOptionsError} for invalid options and when no provider is given.
 */
export function createSummarization(settings: SummarizationSettings = {}): CompactionStrategy {
  const { provider, ...rest } = settings;
  const options = resolveSummarizationOptions(rest);
  if (options.template !== undefined) checkTemplate(options.template);
  if (provider === undefined) {
    throw new InvalidOptionsError({
      subject: `strategy "${strategyName}"`,
      issues: [
        {
          path: 'provider',
          message:
            'no provider to write summaries with: pass one as createSummarization({ provider }), or configure ' +
            'the compaction\'s provider (the config\'s "provider" entry, or the provider given to ' +
            'resolveCompactionConfig / registry.resolve)',
        },
      ],
    });
  }
  const summarizer: Summarizer = {
    provider,
    options,
    template: options.template ?? defaultSummaryTemplate,
    requiredSections:
      options.requiredSections ?? (options.template === undefined ? defaultSummarySections : []),
  };
  return {
    specificationVersion: 'v1',
    name: strategyName,
    compact: (input) => compactWithSummary(input, summarizer),
  };
}

interface Summarizer {
  provider: Provider;
  options: ResolvedSummarizationOptions;
  template: string;
  requiredSections: readonly string[];
}

async function compactWithSummary(input: CompactionInput, summarizer: Summarizer): Promise<CompactionOutput> {
  const { messages, counter, budget } = input;
  const { options } = summarizer;
  assertValidHistory(messages);
  if (input.abortSignal?.aborted) throw new CompactionAbortedError({ cause: input.abortSignal.reason });
  const total = counter.estimate(messages);
  if (total <= budget.target) {
    return { messages: [...messages], details: { summarized: false, reason: 'under-target' } };
  }

  const countText = (text: string) => counter.estimator.countText(text);
  const turnMessages = (turns: readonly Turn[]) =>
    turns.flatMap((turn) => messages.slice(turn.start, turn.end));
  const layout = layoutHistory(messages, counter);
  const headTokens = counter.estimate(turnMessages(layout.anchored));
  const previous = readPreviousSummaries(turnMessages(layout.summaries));
  const extractSettings = { commandCharacters: options.commandCharacters };

  const round = Math.max(input.round, previous.round + 1);
  // Room for the summary message: its fixed parts (the header with the most messages it can count), the
  // summarizer's text and the trail.
  const mostSummarized =
    previous.summarizedMessages + layout.candidates.reduce((sum, turn) => sum + turn.end - turn.start, 0);
  const overhead = counter.estimator.countMessage(
    summaryMessage({
      role: 'assistant',
      text: `${summaryHeader('assistant', round, mostSummarized)}\n\n\n\n`,
      round,
      summaryText: '',
      artifactTrail: previous.trail,
      summarizedMessages: 0,
    }),
  );
  if (headTokens + overhead > budget.limit) {
    throw new BudgetUnreachableError({
      target: budget.target,
      best: headTokens + overhead,
      limit: budget.limit,
      reason:
        'the system prompt, pinned messages, original task and newest request, kept verbatim, and the ' +
        "summary's header are over it",
    });
  }
  let room = budget.target - headTokens - overhead;
  if (room <= 0) room = budget.limit - headTokens - overhead;
  const trailUpperBound = countText(
    renderArtifactTrail(
      mergeArtifactTrails(previous.trail, extractArtifacts(turnMessages(layout.candidates), extractSettings)),
    ),
  );
  const { trailTokens, summaryTokens, recentTokens } = allocateRoom({
    room,
    target: budget.target,
    trailNeeds: trailUpperBound,
    options,
  });
  const recent = selectRecentTurns({
    messages,
    counter,
    candidates: layout.candidates,
    preferred: recentTokens,
    available: room - summaryTokens - trailTokens,
    minimumTurns: options.minimumRecentTurns,
    // Trail first: a turn cut to fill the recent turns' room leaves the trail what it needs beyond its share.
    trailShortfall: Math.max(0, trailUpperBound - trailTokens),
    target: budget.target,
    round,
  });
  // The kept messages in their original order, with the recent turn that was shortened, if one was.
  const boundary = layout.candidates[recent.firstKept];
  const keptTurns = [...layout.anchored, ...layout.candidates.slice(recent.firstKept)].sort(
    (left, right) => left.start - right.start,
  );
  const kept = separateReasoningTurns(
    keptTurns.flatMap((turn) =>
      (turn === boundary && recent.shortened !== undefined
        ? recent.shortened
        : messages.slice(turn.start, turn.end)
      ).map((message, offset) => ({ index: turn.start + offset, message })),
    ),
    round,
  );
  const evictedTurns = layout.candidates.slice(0, recent.firstKept);
  if (evictedTurns.length === 0) {
    // Nothing is summarized: the history stays whole, but for the newest turn's results, if they were cut.
    const keptMessages =
      recent.shortened === undefined || boundary === undefined
        ? [...messages]
        : [...messages.slice(0, boundary.start), ...recent.shortened, ...messages.slice(boundary.end)];
    const keptTokens = counter.estimate(keptMessages);
    if (recent.shortened !== undefined && keptTokens <= budget.limit) {
      return {
        messages: keptMessages,
        details: { summarized: false, reason: 'nothing-to-summarize', shortenedTurns: 1 },
      };
    }
    if (total <= budget.limit) {
      return { messages: [...messages], details: { summarized: false, reason: 'nothing-to-summarize' } };
    }
    throw new BudgetUnreachableError({
      target: budget.target,
      best: Math.min(total, keptTokens),
      limit: budget.limit,
      reason: 'every turn that may be summarized is needed as a recent turn',
    });
  }

  const evicted = turnMessages(evictedTurns);
  const trail = mergeArtifactTrails(previous.trail, extractArtifacts(evicted, extractSettings));
  const instructions = [options.instructions, input.instructions]
    .filter((text): text is string => text !== undefined && text.trim().length > 0)
    .join('\n');

  const spanStart = Math.min(evictedTurns[0]!.start, ...layout.summaries.map((turn) => turn.start));
  const firstConversational = messages.find((message) => message.role !== 'system');
  const summarizedMessages = previous.summarizedMessages + evicted.length;

  // What the summary message may take besides its fixed parts: the room the recent turns leave.
  const summaryRoom = room - recent.tokens;
  // The trail keeps its reserved share; beyond it, it may use any room the summary text leaves.
  const fitTrail = (bodyTokens: number) => {
    // The blank lines between the text and the trail count too, or a text within its limit would not fit.
    const trailBudget = Math.max(trailTokens, summaryRoom - bodyTokens - separatorTokens);
    const fitted = fitArtifactTrail(trail, trailBudget, countText);
    return { trail: fitted.trail, text: countText(fitted.text) <= trailBudget ? fitted.text : '' };
  };
  const assemble = (
    body: string,
    fallback: boolean,
    fittedTrail = fitTrail(countText(body)),
    carriedText = body,
  ) => {
    const placed = placeSummary(
      options.placement,
      kept,
      (role) =>
        summaryMessage({
          role,
          text: [summaryHeader(role, round, summarizedMessages), body, fittedTrail.text]
            .filter((part) => part.length > 0)
            .join('\n\n'),
          round,
          summaryText: carriedText,
          artifactTrail: fittedTrail.trail,
          summarizedMessages,
          ...(fallback ? { fallback: 'extractive' as const } : {}),
        }),
      {
        taskIndex: layout.taskIndex,
        spanStart,
        startsWithUser: firstConversational?.role === 'user',
      },
    );
    return { ...placed, trail: fittedTrail.trail, tokens: counter.estimate(placed.messages) };
  };

  let failure: SummaryFailure | undefined;
  let shortened = false;
  let calls = 0;
  let chunks = 0;
  let largestRequest = 0;
  let result: ReturnType<typeof assemble> | undefined;
  if (summaryTokens < minimumSummaryTokens) {
    failure = { reason: 'no-room', message: `only ${summaryTokens} tokens are left for the summary` };
  } else {
    const outcome = await summarizeSpan({
      provider: summarizer.provider,
      model: options.model,
      messages: evicted,
      previousSummary: previous.text,
      artifactTrail: renderArtifactTrail(trail),
      instructions: instructions.length > 0 ? instructions : undefined,
      round,
      template: summarizer.template,
      requiredSections: summarizer.requiredSections,
      outputTokens: summaryTokens,
      temperature: options.temperature,
      toolOutputCharacters: options.toolOutputCharacters,
      inputShare: options.summarizerInputShare,
      estimator: counter.estimator,
      abortSignal: input.abortSignal,
    });
    calls = outcome.calls;
    chunks = outcome.chunks;
    largestRequest = Math.max(0, ...outcome.inputTokens);
    if (outcome.failure !== undefined) {
      failure = outcome.failure;
    } else {
      // The summarizer was asked for at most `summaryTokens`, but its tokenizer is not ours. The trail is
      // never folded for the text: a text slightly over the room the trail leaves is shortened in the middle;
      // one far over it ignored the limit, and fails as too long.
      const answerTokens = countText(outcome.text);
      const fittedTrail = fitTrail(answerTokens);
      const bodyRoom = summaryRoom - countText(fittedTrail.text) - separatorTokens;
      if (answerTokens <= bodyRoom) {
        result = assemble(outcome.text, false, fittedTrail);
      } else if (answerTokens <= bodyRoom * (1 + shortenableOverflow) && bodyRoom >= minimumSummaryTokens) {
        shortened = true;
        result = assemble(shortenMiddleToTokens(outcome.text, bodyRoom, countText), false, fittedTrail);
      } else {
        failure = {
          reason: 'too-long',
          message: `the summary has ${answerTokens} tokens; the trail leaves room for ${Math.max(0, bodyRoom)}`,
        };
      }
      if (result !== undefined && result.tokens > budget.limit) {
        failure = {
          reason: 'too-long',
          message: `the summary brought the history to ${result.tokens} tokens, over the limit of ${budget.limit}`,
        };
        result = undefined;
      }
    }
  }

  if (failure !== undefined) {
    if (options.fallback === 'error') throw new SummarizationFailedError(failure);
    // Without the LLM, the trail comes first: the digest gets the room it leaves, if that can say anything.
    const fittedTrail = fitTrail(0);
    const digestTokens = Math.min(
      summaryRoom - countText(fittedTrail.text) - separatorTokens,
      options.maxOutputTokens,
    );
    const digest =
      digestTokens < minimumSummaryTokens
        ? ''
        : extractiveDigest({
            task: messages[layout.taskIndex],
            latestRequest: messages[layout.latestIndex],
            previousSummary: previous.text,
            evicted,
            tokens: digestTokens,
            countText,
          });
    // With no room for a digest, the earlier summary's text still rides in the metadata, so a later round
    // with more room merges it instead of losing it.
    result = assemble(digest, true, fittedTrail, digest === '' ? (previous.text ?? '') : digest);
    if (result.tokens > budget.limit) {
      throw new BudgetUnreachableError({
        target: budget.target,
        best: result.tokens,
        limit: budget.limit,
        reason: 'even the extractive digest does not fit',
      });
    }
  }

  const keptMessages = new Set(kept.map((item) => item.message));
  const summary = result!.messages.find((message) => !keptMessages.has(message));
  const details: JSONObject = {
    summarized: true,
    round,
    summarizedMessages: evicted.length,
    mergedSummaries: layout.summaries.length,
    keptRecentTurns: layout.candidates.length - recent.firstKept,
    ...(recent.shortened === undefined ? {} : { shortenedTurns: 1 }),
    summaryRole: result!.role,
    summarizerCalls: calls,
    chunks,
    largestSummarizerRequest: largestRequest,
    trail: {
      files: result!.trail.files.length,
      commands: result!.trail.commands.length,
      errors: result!.trail.errors.length,
      folded: result!.trail.folded,
    },
    ...(shortened ? { summaryShortened: true } : {}),
    ...(failure === undefined
      ? {}
      : { fallback: 'extractive', reason: failure.reason, failure: failure.message }),
  };
  return { messages: result!.messages, summary: summaryText(summary), details };
}

function summaryText(message: Message | undefined): string {
  if (message === undefined) return '';
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}
