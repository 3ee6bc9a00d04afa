import { type Message, mergesAheadOfReasoning, type TokenCounter } from '@compaction/core';
import { countTurn, planTurns } from '@compaction/strategy-kit';

/**
 * What a strategy may not shrink: the floor under which no result of it can go. With `archive`, for a run
 * where the strategy archives what it removes: its markers and placeholders then name recall handles, and
 * cost more.
 */
export type FloorOf = (
  messages: readonly Message[],
  counter: TokenCounter,
  settings?: { archive?: boolean },
) => number;

/** What a removal marker costs at most: one between two protected turns, or one per run of removed turns. */
export const markerRoom = 24;

/** What a removal marker that names a recall handle costs at most. */
export const archivedMarkerRoom = 48;

/**
 * Tokens of the protected turns of core's turn plan (system prompt, pinned messages, original task, newest
 * user request, a last turn waiting for results): what no strategy may remove or shorten. Where removing the
 * turns between two protected turns would put an assistant message right before one with reasoning, a marker
 * must stand between them (`mergesAheadOfReasoning`), and its room is counted too.
 */
export function protectedTokens(
  messages: readonly Message[],
  counter: TokenCounter,
  settings: { archive?: boolean } = {},
): number {
  return measureProtectedTurns(messages, counter, 0, roomOfMarker(settings)).tokens;
}

function roomOfMarker(settings: { archive?: boolean }): number {
  return settings.archive === true ? archivedMarkerRoom : markerRoom;
}

/**
 * The floor the conformance suite holds every strategy to: {@link protectedTokens}, plus the room of one
 * removal marker ({@link markerRoom}) for every run of unprotected turns, since a strategy may leave a marker
 * where it removed turns. Only the rules decide it, never a strategy's own choices, so a target at or above
 * it is one every strategy that may remove unprotected turns can reach. A strategy that by design keeps its
 * newest turns until the limit forces them out passes their number as `recentTurns`: they count as
 * protected too. With `archive`, each marker counts {@link archivedMarkerRoom}.
 */
export function reachableFloor(
  messages: readonly Message[],
  counter: TokenCounter,
  settings: { recentTurns?: number; archive?: boolean } = {},
): number {
  const room = roomOfMarker(settings);
  const { tokens, gaps } = measureProtectedTurns(messages, counter, settings.recentTurns ?? 0, room);
  return tokens + room * gaps;
}

function measureProtectedTurns(
  messages: readonly Message[],
  counter: TokenCounter,
  recentTurns: number,
  room: number,
): { tokens: number; gaps: number } {
  const plan = planTurns(messages, counter);
  const recentStart = plan.turns.length - recentTurns;
  for (let turnIndex = Math.max(0, recentStart); turnIndex < plan.turns.length; turnIndex++) {
    if (plan.protectedTurns[turnIndex] === 1) continue;
    plan.protectedTurns[turnIndex] = 1;
    plan.tokens[turnIndex] = countTurn(messages, plan.turns[turnIndex]!, counter);
  }
  let tokens = 0;
  let gaps = 0;
  let previous: number | undefined;
  plan.turns.forEach((turn, turnIndex) => {
    if (plan.protectedTurns[turnIndex] === 0) {
      if (turnIndex === 0 || plan.protectedTurns[turnIndex - 1] === 1) gaps++;
      return;
    }
    tokens += plan.tokens[turnIndex]!;
    const before = previous === undefined ? undefined : plan.turns[previous]!;
    if (
      before !== undefined &&
      before.end < turn.start &&
      mergesAheadOfReasoning(messages[before.end - 1], messages[turn.start])
    ) {
      tokens += room;
    }
    previous = turnIndex;
  });
  return { tokens, gaps };
}
