import {
  type AnthropicTurn,
  endsInToolLoop,
  isAnthropicThinkingEnabled,
  isThinkingBlock,
  turnPath,
} from './anthropic-turns.js';
import type { ContractViolation } from './contract-violation.js';
import type { JSONRecord } from './json-record.js';

/**
 * Extended thinking: an assistant turn holding thinking starts with it; with thinking on, the assistant turn
 * of an ongoing tool loop starts with it; with thinking off, a final assistant message holds none.
 */
export function anthropicThinkingViolations(
  request: JSONRecord,
  turns: readonly AnthropicTurn[],
): ContractViolation[] {
  const violations: ContractViolation[] = [];
  for (const turn of turns) {
    if (turn.role !== 'assistant' || !turn.blocks.some(isThinkingBlock)) continue;
    const first = turn.blocks[0]!;
    if (!isThinkingBlock(first)) {
      violations.push({
        rule: 'anthropic.thinking-first',
        path: first.path,
        message: `the assistant turn at ${turnPath(turn)} holds thinking but starts with ${String(first.block.type)}`,
      });
    }
  }
  const enabled = isAnthropicThinkingEnabled(request);
  if (enabled && endsInToolLoop(turns)) {
    const loop = turns.at(-2)!;
    const first = loop.blocks[0];
    if (first === undefined || !isThinkingBlock(first)) {
      violations.push({
        rule: 'anthropic.tool-loop-thinking',
        path: first?.path ?? turnPath(loop),
        message: `thinking is on and the request ends inside a tool loop, so the assistant turn at ${turnPath(loop)} must start with a thinking or redacted_thinking block`,
      });
    }
  }
  const last = turns.at(-1);
  if (!enabled && last?.role === 'assistant') {
    const finalMessage = last.messageIndexes.at(-1);
    const found = last.blocks.find(
      (located) => located.messageIndex === finalMessage && isThinkingBlock(located),
    );
    if (found !== undefined) {
      violations.push({
        rule: 'anthropic.thinking-disabled-final',
        path: found.path,
        message: 'thinking is off, so the assistant message in the final position may not hold thinking',
      });
    }
  }
  return violations;
}
