import { withCompactionMetadata } from '../messages/compaction-metadata.js';
import type { AssistantMessage, Message } from '../messages/message.js';
import type { TokenCounter } from '../tokens/token-counter.js';
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

/** The marker message for `count` removed messages: an assistant message marked `kind: 'marker'`. */
export function removalMarker(count: number, settings: RemovalMarkerSettings): AssistantMessage {
  return withCompactionMetadata<AssistantMessage>(
    { role: 'assistant', content: [{ type: 'text', text: settings.text(count) }] },
    { kind: 'marker', round: settings.round, strategy: settings.strategy },
  );
}

/** An upper bound of what one marker costs (0 without markers), so plans leave room for the markers they add. */
export function removalMarkerCost(counter: TokenCounter, settings: RemovalMarkerSettings): number {
  return settings.markers ? counter.countMessage(removalMarker(9_999_999, settings)) : 0;
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
 * run of removed messages; `replacements` gives new messages for kept turns that were shortened. Markers are
 * assistant messages, so a marker never stands first when the history must start with a user turn (its
 * count then moves to the next gap, if there is one) and never stands last (where it would read as the
 * model's answer); such counts are still reported in `removedMessages`.
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
  let conversationStarted = false;
  plan.turns.forEach((turn, turnIndex) => {
    if (kept[turnIndex] !== 1) {
      pending += turn.end - turn.start;
      removedMessages += turn.end - turn.start;
      removedTurns++;
      return;
    }
    const afterGap = turnIndex > 0 && kept[turnIndex - 1] !== 1;
    if (afterGap && pending > 0 && settings.markers && (conversationStarted || !plan.startsWithUser)) {
      result.push(removalMarker(pending, settings));
      markers++;
      pending = 0;
    }
    const turnMessages = replacements.get(turnIndex) ?? messages.slice(turn.start, turn.end);
    for (const message of turnMessages) {
      if (message.role !== 'system') conversationStarted = true;
      result.push(message);
    }
  });
  return { messages: result, removedMessages, removedTurns, markers };
}
