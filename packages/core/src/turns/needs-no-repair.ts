import type { AssistantMessage, Message } from '../messages/message.js';

/**
 * Scratch state of {@link needsNoRepair}, reused by every call (it is synchronous), so that checking a
 * history allocates nothing per message: the call ids seen so far, and which calls of the open turn have
 * been answered (by the position of the call in its message; a call's flag is set when its turn opens).
 */
const callIds = new Set<string>();
const answered: boolean[] = [];

/**
 * Whether a well-formed history is one {@link repairHistory} would return unchanged: tool call ids are
 * unique, and every tool result comes right after the assistant message that made its call (in the tool
 * messages that follow it), once, before the next non-tool message. Calls in the last turn may still wait.
 * One pass; it only says yes or no, `repairHistory` says what is wrong. Expects messages that passed
 * `validateMessages`.
 */
export function needsNoRepair(messages: readonly Message[]): boolean {
  try {
    // The assistant message whose calls the following tool messages answer, and how many still wait.
    let open: AssistantMessage | undefined;
    let pending = 0;
    for (const message of messages) {
      if (message.role === 'tool') {
        for (const part of message.content) {
          if (open === undefined) return false;
          const position = callPosition(open, part.toolCallId);
          if (position < 0 || answered[position] === true) return false;
          answered[position] = true;
          pending--;
        }
        continue;
      }
      // Any other message closes the open turn: its calls must all be answered by now.
      if (pending > 0) return false;
      open = undefined;
      if (message.role !== 'assistant') continue;
      for (let position = 0; position < message.content.length; position++) {
        const part = message.content[position]!;
        if (part.type !== 'tool-call') continue;
        const known = callIds.size;
        if (callIds.add(part.toolCallId).size === known) return false;
        answered[position] = false;
        pending++;
      }
      if (pending > 0) open = message;
    }
    return true;
  } finally {
    // Only the ids are let go: the flags are overwritten before they are read, and keeping their room
    // saves regrowing it.
    callIds.clear();
  }
}

/** Position in `message` of the tool call with this id, or -1. Turns carry few calls: a scan is quickest. */
function callPosition(message: AssistantMessage, toolCallId: string): number {
  const content = message.content;
  for (let position = 0; position < content.length; position++) {
    const part = content[position]!;
    if (part.type === 'tool-call' && part.toolCallId === toolCallId) return position;
  }
  return -1;
}
