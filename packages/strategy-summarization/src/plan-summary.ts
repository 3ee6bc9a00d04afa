import {
  type ArchivedItem,
  BudgetUnreachableError,
  type CompactionInput,
  type CompactionOutput,
  type Message,
} from '@compaction/core';
import {
  archivedChanges,
  archivedMessages,
  costliestRecallHint,
  planTurns,
  type Turn,
} from '@compaction/strategy-kit';
import { allocateRoom } from './allocate-room.js';
import { type ArtifactTrail, mergeArtifactTrails } from './artifact-trail.js';
import { extractArtifacts } from './extract-artifacts.js';
import { english } from './languages/english.js';
import type { SummaryLanguage } from './languages/summary-language.js';
import { type HistoryLayout, layoutHistory, type RecentTurns, selectRecentTurns } from './plan-eviction.js';
import { type PreviousSummary, readPreviousSummaries } from './previous-summary.js';
import { renderArtifactTrail } from './render-artifact-trail.js';
import { type KeptMessage, separateReasoningTurns } from './separate-reasoning-turns.js';
import type { ResolvedSummarizationOptions } from './summarization-options.js';
import { summaryHeader, summaryMessage } from './summary-message.js';

/** What a summarizing compaction keeps, what it summarizes, and where and in how much room the summary goes. */
export interface SummaryPlan {
  round: number;
  /** The language of the summary's own texts: its trail's and its digest's headings. */
  language: SummaryLanguage;
  /** The kept messages in their original order, with separators where a gap would merge two model turns. */
  kept: readonly KeptMessage[];
  /** The messages to summarize, oldest first. */
  evicted: readonly Message[];
  /** The earlier summaries merged into the new one. */
  previous: PreviousSummary;
  mergedSummaries: number;
  /** The artifact trail of the earlier summaries and the evicted messages. */
  trail: ArtifactTrail;
  /** Messages the new summary stands for, the earlier summaries' included. */
  summarizedMessages: number;
  /** The original task and the newest request, quoted by the fallback digest. */
  task: Message | undefined;
  latestRequest: Message | undefined;
  /** Where the summary may go: before the original task, or where the summarized span began. */
  positions: { taskIndex: number; spanStart: number; startsWithUser: boolean };
  /** Tokens for the summary message besides its fixed parts: what the recent turns leave. */
  summaryRoom: number;
  /** Of that room, what is reserved for the artifact trail. */
  trailTokens: number;
  /** The summarizer's output limit. */
  summaryTokens: number;
  keptRecentTurns: number;
  /** Whether the oldest kept recent turn had its tool results shortened. */
  shortenedTurn: boolean;
  /**
   * With `input.archive`: the messages the summary replaces (the earlier summaries and the summarized span,
   * in their order) under the handle its header names, first; then the whole results the shortened recent
   * turn's notes name.
   */
  archived?: ArchivedItem[];
}

/** A compaction that needs no summary (with its output), or the plan of one that does. */
export type SummaryDecision =
  | { kind: 'no-summary'; output: CompactionOutput }
  | { kind: 'summarize'; plan: SummaryPlan };

/**
 * Decides, without calling the summarizer, what a compaction keeps and what it summarizes: the history laid
 * out on the kit's turn plan, the room divided trail first (see `allocateRoom`), the newest turns that fit
 * kept verbatim (the oldest of them shortened to fill the room when that is worth it), the rest summarized.
 * A history at or under the target, or one with nothing to summarize, needs no summary. Throws
 * `BudgetUnreachableError` when what is kept verbatim and the summary's header are over the limit.
 */
export function planSummary(
  input: CompactionInput,
  options: ResolvedSummarizationOptions,
  language: SummaryLanguage = english,
): SummaryDecision {
  const { messages, counter, budget } = input;
  const total = counter.estimate(messages);
  if (total <= budget.target) {
    return noSummary({ messages: [...messages], details: { summarized: false, reason: 'under-target' } });
  }
  const layout = layoutHistory(messages, planTurns(messages, counter));
  const previous = readPreviousSummaries(turnMessages(messages, layout.summaries));
  const round = Math.max(input.round, previous.round + 1);
  const context: PlanContext = {
    input,
    options,
    language,
    layout,
    previous,
    round,
    archive: input.archive === true,
  };
  const room = summaryRoom(context);
  const fitted = fitRecentTurns(context, room);
  const { recent } = fitted;
  const evictedTurns = layout.candidates.slice(0, recent.firstKept);
  if (evictedTurns.length === 0) {
    return noSummary(keepWithoutSummary(input, total, recent, layout.candidates[recent.firstKept]));
  }
  return { kind: 'summarize', plan: summaryPlanOf(context, room, fitted) };
}

/** What every step of the plan reads: the compaction's input and options, the laid-out history, the round. */
interface PlanContext {
  input: CompactionInput;
  options: ResolvedSummarizationOptions;
  language: SummaryLanguage;
  layout: HistoryLayout;
  previous: PreviousSummary;
  round: number;
  archive: boolean;
}

/** The recent turns kept verbatim, and the tokens the room gives the trail and the summarizer's text. */
interface FittedTurns {
  recent: RecentTurns;
  trailTokens: number;
  summaryTokens: number;
}

function turnMessages(messages: readonly Message[], turns: readonly Turn[]): Message[] {
  return turns.flatMap((turn) => messages.slice(turn.start, turn.end));
}

/**
 * The room for the summary message and the recent turns: the target less what is kept whatever happens (the
 * anchored turns) and the summary's fixed parts (the header with the most messages it can count); the limit
 * instead when the target leaves nothing. Throws `BudgetUnreachableError` when those alone are over the limit.
 */
function summaryRoom({ input, layout, previous, round, archive }: PlanContext): number {
  const { messages, counter, budget } = input;
  const headTokens = counter.estimate(turnMessages(messages, layout.anchored));
  const mostSummarized = previous.summarizedMessages + turnMessages(messages, layout.candidates).length;
  const overhead = counter.estimator.countMessage(
    summaryMessage({
      role: 'assistant',
      text: `${summaryHeader('after-task', round, mostSummarized, archive ? costliestRecallHint : undefined)}\n\n\n\n`,
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
  const targetRoom = budget.target - headTokens - overhead;
  return targetRoom > 0 ? targetRoom : budget.limit - headTokens - overhead;
}

/** Divides the room (the trail first, see `allocateRoom`) and picks the newest turns that fit what is left. */
function fitRecentTurns(context: PlanContext, room: number): FittedTurns {
  const { input, options, language, layout, previous, round, archive } = context;
  const { messages, counter, budget } = input;
  const trailNeeds = counter.estimator.countText(
    renderArtifactTrail(
      mergeArtifactTrails(
        previous.trail,
        extractArtifacts(turnMessages(messages, layout.candidates), {
          commandCharacters: options.commandCharacters,
        }),
      ),
      language,
    ),
  );
  const { trailTokens, summaryTokens, recentTokens } = allocateRoom({
    room,
    target: budget.target,
    trailNeeds,
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
    trailShortfall: Math.max(0, trailNeeds - trailTokens),
    target: budget.target,
    round,
    archive,
  });
  return { recent, trailTokens, summaryTokens };
}

/** The plan of a compaction that summarizes the turns before the recent ones (at least one of them). */
function summaryPlanOf(context: PlanContext, room: number, fitted: FittedTurns): SummaryPlan {
  const { input, options, language, layout, previous, round, archive } = context;
  const { messages, counter } = input;
  const { recent, trailTokens, summaryTokens } = fitted;
  const boundary = layout.candidates[recent.firstKept];
  const evictedTurns = layout.candidates.slice(0, recent.firstKept);
  // The kept messages in their original order, with the recent turn that was shortened, if one was.
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
  // The markers that keep two model turns from merging were placed after the room was divided: the summary
  // gives up what they cost, or together they would go over the target.
  const separatorsTokens = kept
    .filter((item) => !Number.isInteger(item.index))
    .reduce((sum, item) => sum + counter.countMessage(item.message), 0);
  const evicted = turnMessages(messages, evictedTurns);
  const shortenedArchive =
    recent.shortened === undefined || boundary === undefined
      ? []
      : archivedChanges(messages.slice(boundary.start, boundary.end), recent.shortened);
  // What the summary replaces, in its order: the earlier summaries and the evicted turns.
  const replaced = turnMessages(
    messages,
    [...layout.summaries, ...evictedTurns].sort((left, right) => left.start - right.start),
  );
  const firstConversational = messages.find((message) => message.role !== 'system');
  return {
    round,
    language,
    kept,
    evicted,
    previous,
    mergedSummaries: layout.summaries.length,
    trail: mergeArtifactTrails(
      previous.trail,
      extractArtifacts(evicted, { commandCharacters: options.commandCharacters }),
    ),
    summarizedMessages: previous.summarizedMessages + evicted.length,
    task: messages[layout.taskIndex],
    latestRequest: messages[layout.latestIndex],
    positions: {
      taskIndex: layout.taskIndex,
      spanStart: Math.min(evictedTurns[0]!.start, ...layout.summaries.map((turn) => turn.start)),
      startsWithUser: firstConversational?.role === 'user',
    },
    summaryRoom: room - recent.tokens - separatorsTokens,
    trailTokens,
    summaryTokens,
    keptRecentTurns: layout.candidates.length - recent.firstKept,
    shortenedTurn: recent.shortened !== undefined,
    ...(archive ? { archived: [archivedMessages(replaced), ...shortenedArchive] } : {}),
  };
}

/**
 * The output when every turn that may be summarized is needed as a recent turn: the history stays whole, but
 * for the newest turn's results, if they were cut. Throws `BudgetUnreachableError` when it is over the limit.
 */
function keepWithoutSummary(
  input: CompactionInput,
  total: number,
  recent: RecentTurns,
  boundary: Turn | undefined,
): CompactionOutput {
  const { messages, counter, budget } = input;
  const shortenedHistory =
    recent.shortened === undefined || boundary === undefined
      ? undefined
      : [...messages.slice(0, boundary.start), ...recent.shortened, ...messages.slice(boundary.end)];
  const shortenedTokens = shortenedHistory === undefined ? total : counter.estimate(shortenedHistory);
  if (shortenedHistory !== undefined && shortenedTokens <= budget.limit) {
    const details = { summarized: false, reason: 'nothing-to-summarize', shortenedTurns: 1 };
    if (input.archive !== true || recent.shortened === undefined || boundary === undefined) {
      return { messages: shortenedHistory, details };
    }
    const archived = archivedChanges(messages.slice(boundary.start, boundary.end), recent.shortened);
    return { messages: shortenedHistory, details, archived };
  }
  if (total <= budget.limit) {
    return { messages: [...messages], details: { summarized: false, reason: 'nothing-to-summarize' } };
  }
  throw new BudgetUnreachableError({
    target: budget.target,
    best: Math.min(total, shortenedTokens),
    limit: budget.limit,
    reason: 'every turn that may be summarized is needed as a recent turn',
  });
}

function noSummary(output: CompactionOutput): SummaryDecision {
  return { kind: 'no-summary', output };
}
