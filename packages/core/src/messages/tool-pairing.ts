import type { AssistantMessage, Message } from './message.js';

/** One way a history breaks the pairing of tool calls and their results. */
export interface PairingIssue {
  /**
   * `duplicate-call`: a call reuses the id of an earlier call. `misplaced-result`: a tool result does not
   * answer a call of the assistant message whose tool messages it stands in, or answers one twice.
   * `unanswered-call`: a call has no result before the next message that is not a tool message.
   */
  kind: 'duplicate-call' | 'misplaced-result' | 'unanswered-call';
  toolCallId: string;
  /** Index of the message concerned: the call's assistant message, or the result's tool message. */
  index: number;
}

/** What {@link pairingIssues} reports. */
export interface PairingOptions {
  /** Stop at the first issue: for a yes or no answer, which then costs nothing more once it is known. */
  first?: boolean;
  /**
   * Whether the calls of the last turn may still wait for their results (their tools may be running), and so
   * are not reported as unanswered. Default `true`.
   */
  lastTurnMayWait?: boolean;
}

/**
 * The one definition of tool pairing, which repair, validation and verification all use: every tool call
 * has a unique id, and every tool result stands, once, in the tool messages right after the assistant
 * message that made its call, before the next message that is not a tool message. One pass, in order.
 */
export function pairingIssues(messages: readonly Message[], options: PairingOptions = {}): PairingIssue[] {
  const issues: PairingIssue[] = [];
  const callIds = new Set<string>();
  // Whether each call of the open turn has been answered, by the call's position in its message.
  const answered: boolean[] = [];
  let open: AssistantMessage | undefined;
  let openIndex = -1;
  let pending = 0;
  // Adds an issue; says whether to stop there.
  const report = (issue: PairingIssue): boolean => {
    issues.push(issue);
    return options.first === true;
  };
  const closeTurn = (): boolean => {
    if (open === undefined || pending === 0) return false;
    for (let position = 0; position < open.content.length; position++) {
      const part = open.content[position]!;
      if (part.type !== 'tool-call' || answered[position]) continue;
      if (report({ kind: 'unanswered-call', toolCallId: part.toolCallId, index: openIndex })) return true;
    }
    return false;
  };

  // Index loops: a history is walked on every check, and an iterator's entry per message would add up.
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role === 'tool') {
      for (const part of message.content) {
        const position = open === undefined ? -1 : callPosition(open, part.toolCallId);
        if (position >= 0 && !answered[position]) {
          answered[position] = true;
          pending--;
        } else if (report({ kind: 'misplaced-result', toolCallId: part.toolCallId, index })) {
          return issues;
        }
      }
      continue;
    }
    if (closeTurn()) return issues;
    open = undefined;
    pending = 0;
    if (message.role !== 'assistant') continue;
    for (let position = 0; position < message.content.length; position++) {
      const part = message.content[position]!;
      if (part.type !== 'tool-call') continue;
      const known = callIds.size;
      if (callIds.add(part.toolCallId).size === known) {
        if (report({ kind: 'duplicate-call', toolCallId: part.toolCallId, index })) return issues;
      }
      answered[position] = false;
      pending++;
    }
    if (pending > 0) {
      open = message;
      openIndex = index;
    }
  }
  if (options.lastTurnMayWait === false) closeTurn();
  return issues;
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
