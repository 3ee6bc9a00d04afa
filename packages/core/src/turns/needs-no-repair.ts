import type { Message } from '../messages/message.js';
import { pairingIssues } from '../messages/tool-pairing.js';

/**
 * Whether a well-formed history is one {@link repairHistory} would return unchanged: its tool calls and
 * results pair (see `pairingIssues`), calls in the last turn may still wait. One pass that stops at the
 * first problem; it only says yes or no, `repairHistory` says what is wrong. Expects messages that passed
 * `validateMessages`.
 */
export function needsNoRepair(messages: readonly Message[]): boolean {
  return pairingIssues(messages, { first: true }).length === 0;
}
