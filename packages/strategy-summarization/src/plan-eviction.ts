import { latestUserMessageIndex, type Message, type TokenCounter } from '@compaction/core';
import {
  fillRoomWithTurn,
  firstUserMessageIndex,
  isSummary,
  shortenTurn,
  type Turn,
  type TurnPlan,
} from '@compaction/strategy-kit';
import { strategyName } from './summary-message.js';

/** How a history splits before summarizing. */
export interface HistoryLayout {
  /** Index of the original task: the first user request (`firstUserMessageIndex`), or -1 when none. */
  taskIndex: number;
  /** Index of the newest user request (-1 when none). */
  latestIndex: number;
  /** Turns kept whatever happens: the protected turns of the kit's turn plan. */
  anchored: Turn[];
  /** Earlier summaries, merged into the new one. */
  summaries: Turn[];
  /** All other turns, oldest first: each either stays as a recent turn or is summarized. */
  candidates: Turn[];
}

/**
 * Splits a history into turns kept verbatim, earlier summaries (found by metadata) and the turns that may be
 * summarized, on the kit's turn plan (`planTurns`): the protected turns (system prompt, pinned messages, the
 * opening, the task whole, the newest user request, a last turn still waiting for tool results) are kept, so
 * a tool call and its results, and any message a converter joined to the turn before it, are always kept or
 * summarized together, and the task is the same messages for every strategy.
 */
export function layoutHistory(messages: readonly Message[], plan: TurnPlan): HistoryLayout {
  const kindOf = (turn: Turn, turnIndex: number): 'anchored' | 'summaries' | 'candidates' => {
    if (plan.protectedTurns[turnIndex] === 1) return 'anchored';
    const only = turn.end - turn.start === 1 ? messages[turn.start] : undefined;
    return only !== undefined && isSummary(only) ? 'summaries' : 'candidates';
  };
  const kinds = plan.turns.map(kindOf);
  const turnsOf = (kind: ReturnType<typeof kindOf>) =>
    plan.turns.filter((_, turnIndex) => kinds[turnIndex] === kind);
  return {
    taskIndex: firstUserMessageIndex(messages),
    latestIndex: latestUserMessageIndex(messages),
    anchored: turnsOf('anchored'),
    summaries: turnsOf('summaries'),
    candidates: turnsOf('candidates'),
  };
}

/** What {@link selectRecentTurns} weighs. */
export interface RecentTurnsInput {
  messages: readonly Message[];
  counter: TokenCounter;
  candidates: readonly Turn[];
  /** Tokens recent turns may take by preference (`recentShare` of the target). */
  preferred: number;
  /** Tokens recent turns may never exceed (what the target leaves after the head and the summary). */
  available: number;
  minimumTurns: number;
  /**
   * What the whole artifact trail needs beyond the room reserved for it: a turn shortened to fill the recent
   * turns' room leaves this much of it, since the trail also takes the room the recent turns leave unused.
   */
  trailShortfall: number;
  /** The compaction's target, which sets how much room may go unused (`wholeTurnSlack`). */
  target: number;
  round: number;
  /** Whether the cut notes of a shortened turn name the recall handles of the whole results. */
  archive: boolean;
}

/** The recent turns kept: from candidate `firstKept` on, the first of them possibly shortened. */
export interface RecentTurns {
  firstKept: number;
  tokens: number;
  /** The messages of candidate `firstKept` with its tool results shortened, when it was too large whole. */
  shortened?: Message[];
}

/**
 * How many of the newest candidate turns stay verbatim: as many as fit the preferred share, at least
 * `minimumTurns`, and never more than the target leaves. The first turn that does not fit is kept with its
 * tool results shortened to fill the room it would leave (less what the trail still needs), rather than
 * summarized whole, when that room is more than `wholeTurnSlack` of the target (always for the newest turn),
 * so one huge result does not push every recent turn into the summary.
 */
export function selectRecentTurns(input: RecentTurnsInput): RecentTurns {
  let tokens = 0;
  let firstKept = input.candidates.length;
  for (let index = input.candidates.length - 1; index >= 0; index--) {
    const turn = input.candidates[index]!;
    const turnTokens = input.counter.estimate(input.messages.slice(turn.start, turn.end));
    const kept = input.candidates.length - index - 1;
    const limit = kept < input.minimumTurns ? input.available : Math.min(input.preferred, input.available);
    const room = limit - tokens;
    if (turnTokens <= room) {
      tokens += turnTokens;
      firstKept = index;
      continue;
    }
    const marks = { round: input.round, strategy: strategyName, archive: input.archive };
    const fill = room - input.trailShortfall;
    const shortened =
      kept === 0
        ? shortenTurn(input.messages, turn, input.counter, fill, marks)
        : fillRoomWithTurn(input.messages, turn, input.counter, { room: fill, target: input.target }, marks);
    if (shortened !== undefined) {
      return { firstKept: index, tokens: tokens + input.counter.estimate(shortened), shortened };
    }
    break;
  }
  return { firstKept, tokens };
}
