import { type AnthropicTurn, blockType } from './anthropic-turns.js';
import type { ContractViolation } from './contract-violation.js';

/**
 * Whether the conversation opens with a `compaction` block: the API reads such a conversation from the
 * summary on, so it may start with the assistant turn that holds the block (a threshold compaction's answer,
 * or an on-demand compaction's block sent first in `messages`).
 */
export function opensWithCompaction(turns: readonly AnthropicTurn[]): boolean {
  const first = turns.find((turn) => turn.role !== 'system');
  return first?.blocks[0] !== undefined && blockType(first.blocks[0]) === 'compaction';
}

/**
 * The placement rules of `compaction` blocks: each is the first block of the conversation and not in a system
 * message (`compaction_block_misplaced`), so at most one is sent (`compaction_block_ambiguous` names the case of
 * two with content). A conversation that came back from a threshold compaction is sent from its latest block on.
 */
export function anthropicCompactionViolations(turns: readonly AnthropicTurn[]): ContractViolation[] {
  const violations: ContractViolation[] = [];
  const conversational = turns.filter((turn) => turn.role !== 'system');
  for (const turn of turns) {
    for (const [index, located] of turn.blocks.entries()) {
      if (blockType(located) !== 'compaction') continue;
      const first = turn.role !== 'system' && turn === conversational[0] && index === 0;
      if (!first) {
        violations.push({
          rule: 'anthropic.compaction-block-first',
          path: located.path,
          message:
            turn.role === 'system'
              ? 'a compaction block is in a system message'
              : 'a compaction block is not the first block of the conversation; send the conversation from the latest compaction block on',
        });
      }
    }
  }
  return violations;
}
