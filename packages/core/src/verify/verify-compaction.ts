import { compactionMetadataOf, isCompactionProduct, isPinned } from '../messages/compaction-metadata.js';
import type { Message } from '../messages/message.js';
import { latestUserMessageIndex, openingIndexes } from '../messages/message-content.js';
import { pairingIssues, pairingIssueTexts } from '../messages/tool-pairing.js';
import { findMessageIssues } from '../messages/validate-messages.js';
import type { TokenCounter } from '../specs/token-counter-v1.js';
import { mergesAheadOfReasoning } from '../turns/reasoning-boundary.js';
import { archiveViolations } from './archive-violations.js';
import { deepEqual } from './deep-equal.js';
import type { RuleViolation } from './rule-violation.js';

/** What {@link verifyCompaction} compares. */
export interface VerifyCompactionInput {
  before: readonly Message[];
  after: readonly Message[];
  counter: TokenCounter;
  /** The token limit the result must meet; omit to skip the size rule. */
  limit?: number;
  /** With archiving, the strategy's `archived` list, held to the `archive-valid` rule; omit without. */
  archived?: unknown;
}

const texts = {
  reasoning: 'an assistant message now stands right before an assistant message with reasoning',
  marker: 'the result ends with a removal marker, which would read as a new request',
  unmarked: 'a message that is not an unchanged input object carries no metadata.compaction.kind',
};

/**
 * Lists the rules a compaction result breaks (see {@link CompactionRule}; empty when it keeps them all).
 * Reasoning first: providers merge consecutive assistant messages into one turn, whose reasoning must
 * come first, so no assistant message may newly stand right before one with reasoning.
 */
export function verifyCompaction(input: VerifyCompactionInput): RuleViolation[] {
  const { before, after, counter, limit } = input;
  const archive = archiveViolations(input.archived);
  const violations: RuleViolation[] = findMessageIssues(after).map(({ index, path, message }) => ({
    rule: 'valid-messages',
    message: `${path}: ${message}`,
    index,
  }));
  if (violations.length > 0) return [...violations, ...archive];
  const violate = (rule: RuleViolation['rule'], message: string, index?: number) =>
    violations.push(index === undefined ? { rule, message } : { rule, message, index });

  // Every result answers a call of the assistant message before it, and every call answered before still is.
  let answeredBefore: Set<string> | undefined;
  for (const { kind, toolCallId, index } of pairingIssues(after, { lastTurnMayWait: false })) {
    if (kind === 'misplaced-result') violate('tool-pairing', pairingIssueTexts[kind](toolCallId), index);
    else if (kind === 'unanswered-call') {
      answeredBefore ??= new Set(
        before
          .flatMap((message) => (message.role === 'tool' ? message.content : []))
          .map((part) => part.toolCallId),
      );
      if (answeredBefore.has(toolCallId))
        violate('tool-pairing', `tool call "${toolCallId}" lost its result`, index);
    }
  }

  const latestUser = before[latestUserMessageIndex(before)];
  // System messages of the opening are held to `system-kept`, so reported once; a provider's own compaction
  // (marked with the provider that wrote it) stands for the opening, as the provider reads it.
  const byProvider = after.some((message) => compactionMetadataOf(message)?.provider !== undefined);
  const opening = byProvider
    ? []
    : openingIndexes(before).filter((index) => before[index]!.role !== 'system');
  const kept = [
    ['system-kept', 'system message', before.filter((message) => message.role === 'system')],
    ['pinned-kept', 'pinned message', before.filter(isPinned)],
    ['opening-kept', 'message of the opening', opening.map((index) => before[index]!)],
    ['latest-user-kept', 'newest user request', latestUser === undefined ? [] : [latestUser]],
  ] as const;
  for (const [rule, label, required] of kept) {
    // Each required message, in order, somewhere after the previous one.
    let position = 0;
    for (const message of required) {
      const found = after.findIndex(
        (candidate, index) => index >= position && (candidate === message || deepEqual(candidate, message)),
      );
      if (found === -1) violate(rule, `a ${label} was removed, changed or moved out of order`);
      else position = found + 1;
    }
  }
  const firstRole = (messages: readonly Message[]) => messages.find(({ role }) => role !== 'system')?.role;
  if (firstRole(before) === 'user' && firstRole(after) !== 'user') {
    violate('starts-with-user', 'the input started with a user turn but the result does not');
  }

  // An assistant message with reasoning put right after an assistant message it did not follow in the input:
  // a marker or summary a strategy wrote, or an input message that stood elsewhere. Messages changed in place
  // (`kind: 'modified'`) keep their neighbours and are not flagged.
  let positions: Map<Message, number> | undefined;
  for (let index = 1; index < after.length; index++) {
    const previous = after[index - 1]!;
    if (!mergesAheadOfReasoning(previous, after[index])) continue;
    const kind = compactionMetadataOf(previous)?.kind;
    positions ??= new Map(before.map((original, position) => [original, position]));
    const [previousPosition, position] = [positions.get(previous), positions.get(after[index]!)];
    const created = previousPosition === undefined && (kind === 'marker' || kind === 'summary');
    const moved =
      previousPosition !== undefined && position !== undefined && position !== previousPosition + 1;
    if (created || moved) violate('reasoning-first', texts.reasoning, index);
  }

  const last = after[after.length - 1];
  if (last !== undefined && compactionMetadataOf(last)?.kind === 'marker' && !before.includes(last)) {
    violate('marker-not-last', texts.marker, after.length - 1);
  }
  const originals = new Set(before);
  after.forEach((message, index) => {
    if (!originals.has(message) && !isCompactionProduct(message))
      violate('unmarked-change', texts.unmarked, index);
  });
  const tokens = limit === undefined ? 0 : counter.count(after);
  if (limit !== undefined && tokens > limit)
    violate('within-limit', `${tokens} tokens is over the limit of ${limit}`);
  return [...violations, ...archive];
}
