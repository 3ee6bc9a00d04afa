import {
  type Message,
  mergesAheadOfReasoning,
  type TokenCounter,
  type UserMessage,
  withCompactionMetadata,
} from '@compaction/core';
import type { TurnPlan } from './turn-plan.js';

/** How {@link assembleKeptTurns} marks the places where messages were removed. */
export interface RemovalMarkerSettings {
  /** Whether to leave a marker message where messages were removed. */
  markers: boolean;
  /** The marker's text for `count` removed messages. */
  text: (count: number) => string;
  round: number;
  strategy: string;
}

/**
 * The marker message for `count` removed messages: a user message marked `kind: 'marker'`. In the user role
 * it never merges into a model turn (where it would stand ahead of a thinking block the provider requires
 * first); after tool results it joins their user turn, and `latestUserMessageIndex` skips it, so it never becomes
 * the newest user request.
 */
export function removalMarker(count: number, settings: RemovalMarkerSettings): UserMessage {
  return withCompactionMetadata<UserMessage>(
    { role: 'user', content: [{ type: 'text', text: settings.text(count) }] },
    { kind: 'marker', round: settings.round, strategy: settings.strategy },
  );
}

/**
 * An upper bound of what one marker costs, so plans leave room for the marker of each gap they open. Counted
 * even without markers: a gap between two assistant messages, the second with reasoning, gets one anyway.
 */
export function removalMarkerCost(counter: TokenCounter, settings: RemovalMarkerSettings): number {
  return counter.countMessage(removalMarker(9_999_999, settings));
}

/** A history assembled from kept turns, and what was removed. */
export interface AssembledHistory {
  messages: Message[];
  removedMessages: number;
  removedTurns: number;
  markers: number;
}

/**
 * Builds a history from the kept turns (`kept[turn] === 1`), in their original order, with one marker per
 * run of removed messages that a kept turn follows; `replacements` gives new messages for kept turns that
 * were shortened. Markers are user messages, so one may open the conversation; none ends it (it would read
 * as a new request), so removed messages after the last kept turn are only counted in `removedMessages`.
 * Without markers, a gap still gets one where the messages around it would merge into one model turn ahead
 * of its reasoning (see {@link mergesAheadOfReasoning}), which providers refuse.
 */
export function assembleKeptTurns(
  messages: readonly Message[],
  plan: TurnPlan,
  kept: Uint8Array,
  settings: RemovalMarkerSettings,
  replacements: ReadonlyMap<number, readonly Message[]> = new Map(),
): AssembledHistory {
  const result: Message[] = [];
  let pending = 0;
  let removedMessages = 0;
  let removedTurns = 0;
  let markers = 0;
  plan.turns.forEach((turn, turnIndex) => {
    if (kept[turnIndex] !== 1) {
      pending += turn.end - turn.start;
      removedMessages += turn.end - turn.start;
      removedTurns++;
      return;
    }
    const turnMessages = replacements.get(turnIndex) ?? messages.slice(turn.start, turn.end);
    if (
      pending > 0 &&
      (settings.markers || mergesAheadOfReasoning(result[result.length - 1], turnMessages[0]))
    ) {
      result.push(removalMarker(pending, settings));
      markers++;
    }
    pending = 0;
    for (const message of turnMessages) result.push(message);
  });
  return { messages: result, removedMessages, removedTurns, markers };
}
