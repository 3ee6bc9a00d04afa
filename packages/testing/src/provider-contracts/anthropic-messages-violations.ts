import { anthropicCacheViolations } from './anthropic-cache-rules.js';
import { anthropicCompactionViolations, opensWithCompaction } from './anthropic-compaction-rules.js';
import { anthropicMessagesOf, anthropicShapeViolations } from './anthropic-request-shape.js';
import { anthropicThinkingViolations } from './anthropic-thinking-rules.js';
import { anthropicClientToolViolations, anthropicServerToolViolations } from './anthropic-tool-rules.js';
import { anthropicTurns, turnPath } from './anthropic-turns.js';
import type { ContractViolation } from './contract-violation.js';
import type { JSONRecord } from './json-record.js';

/**
 * Checks an Anthropic Messages request (`{ model?, system?, messages, thinking?, tools?, ... }`, plain JSON)
 * against the rules of `docs/provider-contracts.md` and lists what it breaks; empty when the API should accept
 * it. Consecutive messages of one role are read as one turn, as the API combines them. Unknown block types
 * pass; a malformed shape is reported (and stops the other checks), never thrown.
 */
export function anthropicMessagesViolations(request: unknown): ContractViolation[] {
  const shape = anthropicShapeViolations(request);
  if (shape.some((violation) => violation.rule === 'anthropic.request-shape')) return shape;
  const record = request as JSONRecord;
  const turns = anthropicTurns(anthropicMessagesOf(record));
  const violations = [...shape];
  const firstConversational = turns.find((turn) => turn.role !== 'system');
  // A conversation sent from a compaction block on opens with the assistant turn that holds it.
  if (
    firstConversational !== undefined &&
    firstConversational.role !== 'user' &&
    !opensWithCompaction(turns)
  ) {
    violations.push({
      rule: 'anthropic.first-message-user',
      path: turnPath(firstConversational),
      message: `the first message uses the ${firstConversational.role} role; it must use the user role`,
    });
  }
  violations.push(
    ...anthropicClientToolViolations(record, turns),
    ...anthropicServerToolViolations(turns),
    ...anthropicThinkingViolations(record, turns),
    ...anthropicCacheViolations(record, turns),
    ...anthropicCompactionViolations(turns),
  );
  return violations;
}
