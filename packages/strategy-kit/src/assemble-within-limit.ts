import {
  BudgetUnreachableError,
  type CompactionBudget,
  type CompactionOutput,
  type JSONObject,
  type Message,
  type TokenCounter,
} from '@compaction/core';
import { type AssembledHistory, assembleKeptTurns, type RemovalMarkerSettings } from './kept-turns.js';
import { keepUserTurnFirst, type TurnPlan } from './turn-plan.js';

/** What {@link assembleWithinLimit} builds the history from. */
export interface KeptTurnsSelection {
  messages: readonly Message[];
  plan: TurnPlan;
  /** 1 for each turn the strategy keeps. */
  kept: Readonly<Uint8Array>;
  /** New messages for kept turns that were shortened; those of turns not kept are ignored. */
  replacements?: ReadonlyMap<number, readonly Message[]>;
  /** Turns from this one on are never dropped to keep a user turn first (see {@link keepUserTurnFirst}). */
  dropBefore?: number;
  markers: RemovalMarkerSettings;
}

/** A history assembled from kept turns, at or under the limit, and what it counts. */
export interface AssembledWithinLimit extends AssembledHistory {
  tokens: number;
  /** Kept turns that went in shortened (their replacement). */
  shortenedTurns: number;
}

/**
 * The last step of every strategy that keeps or drops whole turns: keeps a user turn first, assembles the
 * kept turns in order with their markers, and leaves the markers out when they are what tips the history
 * over the limit (the limit comes before the markers). Throws `BudgetUnreachableError` when the history is
 * over the limit even so: what the plan protects, which no strategy may remove, is over it.
 */
export function assembleWithinLimit(
  selection: KeptTurnsSelection,
  counter: TokenCounter,
  budget: CompactionBudget,
): AssembledWithinLimit {
  const { messages, plan, markers } = selection;
  const kept = keepUserTurnFirst(messages, plan, selection.kept, selection.dropBefore);
  const replacements = new Map(
    [...(selection.replacements ?? new Map<number, readonly Message[]>())].filter(
      ([turnIndex]) => kept[turnIndex] === 1,
    ),
  );
  const withMarkers = assembleKeptTurns(messages, plan, kept, markers, replacements);
  const tokensWithMarkers = counter.estimate(withMarkers.messages);
  // The limit comes before the markers, even those that name archived messages: what no marker names is
  // not listed as archived.
  const assembled =
    tokensWithMarkers > budget.limit && withMarkers.markers > 0
      ? assembleKeptTurns(messages, plan, kept, { ...markers, markers: false }, replacements)
      : withMarkers;
  const tokens = assembled === withMarkers ? tokensWithMarkers : counter.estimate(assembled.messages);
  if (tokens > budget.limit) throw protectedOverLimit(budget, tokens);
  return { ...assembled, tokens, shortenedTurns: replacements.size };
}

/**
 * The error of a strategy that removed all it may and is still over the limit, `best` tokens: what the turn
 * plan protects is over it.
 */
export function protectedOverLimit(budget: CompactionBudget, best: number): BudgetUnreachableError {
  return new BudgetUnreachableError({
    target: budget.target,
    best,
    limit: budget.limit,
    reason:
      'the system prompt, pinned messages, original task and newest user request, which it may not ' +
      'remove, are over it',
  });
}

/**
 * The output of a strategy that keeps or drops whole turns: the assembled messages, and in the details what
 * was removed, how many markers and shortened turns there are, the count after, and any `extraDetails`; and
 * the archived items when the history was assembled with `archive`.
 */
export function keptTurnsOutput(
  assembled: AssembledWithinLimit,
  extraDetails: JSONObject = {},
): CompactionOutput {
  return {
    messages: assembled.messages,
    ...(assembled.archived === undefined ? {} : { archived: assembled.archived }),
    details: {
      removedMessages: assembled.removedMessages,
      removedTurns: assembled.removedTurns,
      markers: assembled.markers,
      shortenedTurns: assembled.shortenedTurns,
      ...extraDetails,
      tokensAfter: assembled.tokens,
    },
  };
}
