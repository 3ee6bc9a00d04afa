import type { AssistantMessage, Message } from './message.js';

/** One way a history breaks the pairing of tool calls and their results. */
export interface PairingIssue {
  /** A call reusing an earlier id; a result not answering (once) the call before it; a call left unanswered. */
  kind: 'duplicate-call' | 'misplaced-result' | 'unanswered-call';
  toolCallId: string;
  /** Index of the message concerned: the call's assistant message, or the result's tool message. */
  index: number;
}

/** What {@link pairingIssues} reports. */
export interface PairingOptions {
  /** Stop at the first issue: enough for a yes or no answer. */
  first?: boolean;
  /** Whether the calls of the last turn may still wait for their results (tools running). Default `true`. */
  lastTurnMayWait?: boolean;
}

/** How each kind of {@link PairingIssue} reads in an error or a rule violation. */
export const pairingIssueTexts: Record<PairingIssue['kind'], (toolCallId: string) => string> = {
  'duplicate-call': (id) => `tool call id "${id}" is used by an earlier call`,
  'misplaced-result': (id) => `tool result "${id}" does not answer a call of the assistant message before it`,
  'unanswered-call': (id) => `tool call "${id}" has no result before the next message`,
};

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
  const report = (issue: PairingIssue): boolean => issues.push(issue) > 0 && options.first === true;
  const closeTurn = (): boolean => {
    if (open === undefined || pending === 0) return false;
    return open.content.some(
      (part, position) =>
        part.type === 'tool-call' &&
        !answered[position] &&
        report({ kind: 'unanswered-call', toolCallId: part.toolCallId, index: openIndex }),
    );
  };

  // An index loop: a history is walked on every check, and an iterator's entry per message would add up.
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role === 'tool') {
      for (const { toolCallId } of message.content) {
        // Turns carry few calls: a scan is quickest.
        const position = open?.content.findIndex(
          (p) => p.type === 'tool-call' && p.toolCallId === toolCallId,
        );
        if (position !== undefined && position >= 0 && !answered[position]) {
          answered[position] = true;
          pending--;
        } else if (report({ kind: 'misplaced-result', toolCallId, index })) return issues;
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
      // One hash per call: the set did not grow when the id was already there.
      const reused = callIds.size === callIds.add(part.toolCallId).size;
      if (reused && report({ kind: 'duplicate-call', toolCallId: part.toolCallId, index })) return issues;
      answered[position] = false;
      pending++;
    }
    open = message;
    openIndex = index;
  }
  if (options.lastTurnMayWait === false) closeTurn();
  return issues;
}
