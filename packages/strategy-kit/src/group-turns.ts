import { compactionMetadataOf, type Message, toolCallsOf } from '@compaction/core';

/**
 * The smallest span of a history kept or dropped whole: one message, or a tool-calling assistant message with
 * the tool messages right after it, extended over messages marked `metadata.compaction.joinsPrevious`.
 */
export interface Turn {
  /** Index of the first message. */
  start: number;
  /** Index after the last message. */
  end: number;
}

/**
 * Groups a history into {@link Turn}s, which strategies keep or drop whole so tool calls and results stay
 * together. A tool message that follows no tool-calling assistant message is a turn of its own.
 */
export function groupTurns(messages: readonly Message[]): Turn[] {
  const turns: Turn[] = [];
  let index = 0;
  while (index < messages.length) {
    const start = index;
    index = endOfCallAndResults(messages, index);
    while (index < messages.length && compactionMetadataOf(messages[index]!)?.joinsPrevious === true) {
      index = endOfCallAndResults(messages, index);
    }
    turns.push({ start, end: index });
  }
  return turns;
}

/** Index after the message at `index` and, when it calls tools, the tool messages right after it. */
function endOfCallAndResults(messages: readonly Message[], index: number): number {
  let end = index + 1;
  if (toolCallsOf(messages[index]!).length > 0) {
    while (end < messages.length && messages[end]!.role === 'tool') end++;
  }
  return end;
}
