import { InvalidMessagesError } from '../errors/invalid-messages-error.js';
import type { Message } from '../messages/message.js';
import { type PairingIssue, pairingIssues } from '../messages/tool-pairing.js';
import { validateMessages } from '../messages/validate-messages.js';
import type { RepairOptions, RepairResult } from './repair.js';
import { repairToolPairing } from './repair-tool-pairing.js';

export { missingResultText } from './repair-tool-pairing.js';

/**
 * Makes a history valid for providers without losing content: every tool result ends up right after the
 * assistant message that made the call. Results found later in the history are moved back to their call;
 * calls with no result anywhere get a placeholder error result; results with no call and duplicate results
 * are dropped (or reported, see {@link RepairOptions}); a call id used again by a later call is renamed
 * `<id>#<n>` together with the results that answer it. Messages that need no change are returned as the same
 * objects; changed and inserted messages are marked with `metadata.compaction.repair`.
 * Throws {@link InvalidMessagesError} for malformed messages.
 */
export function repairHistory(input: readonly Message[], options: RepairOptions = {}): RepairResult {
  validateMessages(input);
  // Most histories need nothing: one pass that stops at the first problem says so, without the lookups the
  // whole repair builds.
  if (needsNoRepair(input)) return { messages: [...input], repairs: [] };
  return repairToolPairing(input, options);
}

/**
 * Whether a well-formed history is one {@link repairHistory} would return unchanged: its tool calls and
 * results pair, and calls in the last turn may still wait. It only says yes or no, at the first problem.
 */
export function needsNoRepair(messages: readonly Message[]): boolean {
  return pairingIssues(messages, { first: true }).length === 0;
}

/**
 * Throws {@link InvalidMessagesError} unless `messages` is a well-formed history that needs no repair
 * (every tool result right after its call, no orphans, no duplicates; calls in the last turn may still wait
 * for results). Strategies call it first so that malformed input gets a typed error, never a crash; the
 * issues of malformed messages alone are listed by `findMessageIssues`.
 */
export function assertValidHistory(messages: unknown): asserts messages is Message[] {
  validateMessages(messages);
  const issues = pairingIssues(messages);
  if (issues.length === 0) return;
  throw new InvalidMessagesError({
    issues: issues.map((issue) => ({
      index: issue.index,
      path: 'content',
      message: `${issueTexts[issue.kind](issue.toolCallId)}; run repairHistory first`,
    })),
  });
}

const issueTexts: Record<PairingIssue['kind'], (toolCallId: string) => string> = {
  'duplicate-call': (id) => `tool call id "${id}" is used by an earlier call`,
  'misplaced-result': (id) => `tool result "${id}" does not answer a call of the assistant message before it`,
  'unanswered-call': (id) => `tool call "${id}" has no result before the next message`,
};
