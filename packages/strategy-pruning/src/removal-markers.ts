import {
  type AssistantMessage,
  type Message,
  type TokenCounter,
  withCompactionMetadata,
} from '@compaction/core';
import type { TurnPlan } from './turn-plan.js';

/** How {@link assembleKeptTurns} marks the places where messages were removed. */
export interface MarkerSettings {
  /** Whether to leave a marker message where messages were removed. */
  markers: boolean;
  round: number;
  strategy: string;
}

/** The text of the marker left where `count` messages were removed. */
export function markerText(count: number): string {
  return `[${count} earlier ${count === 1 ? 'message' : 'messages'} removed to save space.]`;
}

/** Builds the marker message for `count` removed messages. */
export function removalMarker(count: number, settings: MarkerSettings): AssistantMessage {
  return withCompactionMetadata<AssistantMessage>(
    { role: 'assistant', content: [{ type: 'text', text: markerText(count) }] },
    { kind: 'marker', round: settings.round, strategy: settings.strategy },
  );
}

/** An upper bound of what one marker costs, so plans leave room for the markers they will add. */
export function markerCost(counter: TokenCounter, settings: MarkerSettings): number {
  return settings.markers ? counter.countMessage(removalMarker(9_999_999, settings)) : 0;
}

/** The assembled history and what was removed. */
export interface AssembledHistory {
  messages: Message[];
  removedMessages: number;
  removedTurns: number;
  markers: number;
}

/**
 * Builds the result from the kept turns, in their original order, with one marker per run of removed
 * messages. Markers are assistant messages, so a marker never stands first when the history must start with
 * a user turn (its count then moves to the next gap) and never stands last (where it would read as the
 * model's answer); such counts are still reported in `removedMessages`.
 */
export function assembleKeptTurns(
  messages: readonly Message[],
  plan: TurnPlan,
  kept: Uint8Array,
  settings: MarkerSettings,
): AssembledHistory {
  const result: Message[] = [];
  let pending = 0;
  let removedMessages = 0;
  let removedTurns = 0;
  let markers = 0;
  let conversationStarted = false;
  plan.turns.forEach((turn, turnIndex) => {
    if (kept[turnIndex] !== 1) {
      pending += turn.end - turn.start;
      removedMessages += turn.end - turn.start;
      removedTurns++;
      return;
    }
    if (pending > 0 && settings.markers && (conversationStarted || !plan.startsWithUser)) {
      result.push(removalMarker(pending, settings));
      markers++;
      pending = 0;
    }
    for (let index = turn.start; index < turn.end; index++) {
      const message = messages[index]!;
      if (message.role !== 'system') conversationStarted = true;
      result.push(message);
    }
  });
  return { messages: result, removedMessages, removedTurns, markers };
}
