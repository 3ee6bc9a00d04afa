import type { Message } from '../messages/message.js';
import { toolCallsOf } from '../messages/message-content.js';

/**
 * The smallest span of a history that is kept or dropped whole: one message, or an assistant message that
 * calls tools together with the tool messages right after it that carry their results.
 */
export interface Turn {
  /** Index of the first message. */
  start: number;
  /** Index after the last message. */
  end: number;
}

/**
 * Groups a history into {@link Turn}s. Every strategy keeps or drops turns whole, which is what keeps tool
 * calls and their results together. A tool message that does not follow a tool-calling assistant message is a
 * turn of its own (run {@link repairHistory} first to remove such orphans).
 */
export function groupTurns(messages: readonly Message[]): Turn[] {
  const turns: Turn[] = [];
  let index = 0;
  while (index < messages.length) {
    const start = index;
    const message = messages[index]!;
    index++;
    if (toolCallsOf(message).length > 0) {
      while (index < messages.length && messages[index]!.role === 'tool') index++;
    }
    turns.push({ start, end: index });
  }
  return turns;
}

/** The messages of a turn. */
export function turnMessages(messages: readonly Message[], turn: Turn): Message[] {
  return messages.slice(turn.start, turn.end);
}
