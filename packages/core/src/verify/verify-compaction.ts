import { compactionMetadataOf, isCompactionProduct, isPinned } from '../messages/compaction-metadata.js';
import type { Message } from '../messages/message.js';
import { latestUserMessageIndex } from '../messages/message-content.js';
import { pairingIssues } from '../messages/tool-pairing.js';
import { findMessageIssues } from '../messages/validate-messages.js';
import type { TokenCounter } from '../specs/token-counter-v1.js';
import { mergesAheadOfReasoning } from '../turns/reasoning-boundary.js';
import { deepEqual } from './deep-equal.js';
import type { RuleViolation } from './rule-violation.js';

/** What {@link verifyCompaction} compares. */
export interface VerifyCompactionInput {
  before: readonly Message[];
  after: readonly Message[];
  counter: TokenCounter;
  /** The token limit the result must meet; omit to skip the size rule. */
  limit?: number;
}

/**
 * Checks a compaction result against the rules every strategy keeps and lists what it breaks (empty when
 * it keeps them all): well-formed messages; every tool result right after the call it answers and every
 * answered call still answered; system and pinned messages kept verbatim and in order; the newest user
 * request kept verbatim; a user turn first when the input had one first; no assistant message newly put
 * right before an assistant message with reasoning (providers would merge them into one turn with the
 * reasoning no longer first); no removal marker last; messages either unchanged objects of the input or
 * marked as compaction products; and the token count within the limit.
 */
export function verifyCompaction({ before, after, counter, limit }: VerifyCompactionInput): RuleViolation[] {
  const violations: RuleViolation[] = [];
  for (const issue of findMessageIssues(after)) {
    violations.push({
      rule: 'valid-messages',
      message: `${issue.path}: ${issue.message}`,
      index: issue.index,
    });
  }
  if (violations.length > 0) return violations;

  checkToolPairing(before, after, violations);
  const latestUser = before[latestUserMessageIndex(before)];
  const kept = [
    ['system-kept', 'system message', before.filter((message) => message.role === 'system')],
    ['pinned-kept', 'pinned message', before.filter(isPinned)],
    ['latest-user-kept', 'newest user request', latestUser === undefined ? [] : [latestUser]],
  ] as const;
  for (const [rule, label, required] of kept) checkKeptVerbatim(required, after, rule, label, violations);
  if (firstConversational(before)?.role === 'user' && firstConversational(after)?.role !== 'user') {
    violations.push({
      rule: 'starts-with-user',
      message: 'the input started with a user turn but the result does not',
    });
  }

  checkReasoningFirst(before, after, violations);
  const last = after[after.length - 1];
  if (last !== undefined && compactionMetadataOf(last)?.kind === 'marker' && !before.includes(last)) {
    violations.push({
      rule: 'marker-not-last',
      message: 'the result ends with a removal marker, which would read as a new request',
      index: after.length - 1,
    });
  }

  const originals = new Set(before);
  after.forEach((message, index) => {
    if (!originals.has(message) && !isCompactionProduct(message)) {
      violations.push({
        rule: 'unmarked-change',
        message: 'a message that is not an unchanged input object carries no metadata.compaction.kind',
        index,
      });
    }
  });

  if (limit !== undefined) {
    const tokens = counter.count(after);
    if (tokens > limit) {
      violations.push({ rule: 'within-limit', message: `${tokens} tokens is over the limit of ${limit}` });
    }
  }
  return violations;
}

function firstConversational(messages: readonly Message[]): Message | undefined {
  return messages.find((message) => message.role !== 'system');
}

/**
 * Flags an assistant message with reasoning that the result puts right after an assistant message it did not
 * follow in the input: a marker or summary a strategy wrote, or an input message that stood elsewhere.
 * Messages a strategy changed in place (`kind: 'modified'`) keep their neighbours and are not flagged.
 */
function checkReasoningFirst(
  before: readonly Message[],
  after: readonly Message[],
  violations: RuleViolation[],
) {
  let positions: Map<Message, number> | undefined;
  for (let index = 1; index < after.length; index++) {
    const previous = after[index - 1]!;
    const message = after[index]!;
    if (!mergesAheadOfReasoning(previous, message)) continue;
    const kind = compactionMetadataOf(previous)?.kind;
    positions ??= new Map(before.map((original, position) => [original, position]));
    const previousPosition = positions.get(previous);
    const position = positions.get(message);
    const created = previousPosition === undefined && (kind === 'marker' || kind === 'summary');
    const moved =
      previousPosition !== undefined && position !== undefined && position !== previousPosition + 1;
    if (created || moved) {
      violations.push({
        rule: 'reasoning-first',
        message: 'an assistant message now stands right before an assistant message with reasoning',
        index,
      });
    }
  }
}

/** Every result answers a call of the assistant message before it, and every call answered before still is. */
function checkToolPairing(
  before: readonly Message[],
  after: readonly Message[],
  violations: RuleViolation[],
) {
  let answeredBefore: Set<string> | undefined;
  for (const issue of pairingIssues(after, { lastTurnMayWait: false })) {
    if (issue.kind === 'misplaced-result') {
      violations.push({
        rule: 'tool-pairing',
        message: `tool result "${issue.toolCallId}" does not answer a call in the assistant message before it`,
        index: issue.index,
      });
    } else if (issue.kind === 'unanswered-call') {
      answeredBefore ??= new Set(
        before.flatMap((message) =>
          message.role === 'tool' ? message.content.map((part) => part.toolCallId) : [],
        ),
      );
      if (!answeredBefore.has(issue.toolCallId)) continue;
      violations.push({
        rule: 'tool-pairing',
        message: `tool call "${issue.toolCallId}" lost its result`,
        index: issue.index,
      });
    }
  }
}

function checkKeptVerbatim(
  required: readonly Message[],
  after: readonly Message[],
  rule: RuleViolation['rule'],
  label: string,
  violations: RuleViolation[],
) {
  let position = 0;
  for (const message of required) {
    let found = -1;
    for (let index = position; index < after.length; index++) {
      const candidate = after[index]!;
      if (candidate === message || deepEqual(candidate, message)) {
        found = index;
        break;
      }
    }
    if (found === -1) {
      violations.push({ rule, message: `a ${label} was removed, changed or moved out of order` });
    } else {
      position = found + 1;
    }
  }
}
