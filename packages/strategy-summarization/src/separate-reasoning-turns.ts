import { type Message, mergesAheadOfReasoning } from '@compaction/core';
import { type RemovalMarkerSettings, removalMarker } from '@compaction/strategy-kit';
import { strategyName } from './summary-message.js';

/** A kept message and its index in the input (fractional for messages placed between input messages). */
export interface KeptMessage {
  index: number;
  message: Message;
}

/** The text of the marker left where summarized messages would let two model turns merge. */
export function separatorText(count: number): string {
  return `[${count} earlier ${count === 1 ? 'message is' : 'messages are'} in the summary.]`;
}

/**
 * Puts a user-role marker into every gap the summarized span leaves between an assistant message and an
 * assistant message with reasoning: providers merge the two into one turn, with the reasoning no longer
 * first, and refuse it. Every other gap stays as it is. The input is not changed.
 */
export function separateReasoningTurns(kept: readonly KeptMessage[], round: number): KeptMessage[] {
  const settings: RemovalMarkerSettings = {
    markers: true,
    text: separatorText,
    round,
    strategy: strategyName,
  };
  const separated: KeptMessage[] = [];
  for (const item of kept) {
    const previous = separated[separated.length - 1];
    if (
      previous !== undefined &&
      item.index > previous.index + 1 &&
      mergesAheadOfReasoning(previous.message, item.message)
    ) {
      const removed = item.index - Math.floor(previous.index) - 1;
      separated.push({ index: item.index - 0.5, message: removalMarker(removed, settings) });
    }
    separated.push(item);
  }
  return separated;
}
