import { deepEqual } from '@compaction/core';
import {
  type AnthropicBlock,
  type AnthropicTurn,
  anthropicServerToolResultTypes,
  anthropicTurns,
  blockType,
  endsInToolLoop,
  isThinkingBlock,
  turnPath,
} from './anthropic-turns.js';
import {
  type CompactedRequestReading,
  keptRuleViolations,
  type LocatedKey,
} from './compacted-rule-helpers.js';
import type { ContractViolation } from './contract-violation.js';
import { type JSONRecord, stringField } from './json-record.js';

const callTypes = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);
const resultTypes = new Set(['tool_result', 'mcp_tool_result', ...anthropicServerToolResultTypes]);

const anthropicReading: CompactedRequestReading = {
  entries: (request) => request.messages as JSONRecord[],
  listField: 'messages',
  systemPrompt: { field: 'system', changed: 'the system prompt changed' },
  isSystemMessage: (message) => message.role === 'system',
  systemMessageName: 'system message',
  settings: ['model', 'tools', 'tool_choice', 'thinking', 'mcp_servers'],
  userRequests,
  idKeys: (messages) => anthropicTurns(messages).flatMap((turn) => turn.blocks.flatMap(blockIdKeys)),
};

/** The rules between a Messages request and its compaction (both of a readable shape). */
export function compactedAnthropicViolations(
  original: JSONRecord,
  compacted: JSONRecord,
): ContractViolation[] {
  const violations = keptRuleViolations(anthropicReading, original, compacted);
  const originalTurns = anthropicTurns(original.messages as JSONRecord[]);
  const compactedTurns = anthropicTurns(compacted.messages as JSONRecord[]);
  const thinkingByKey = new Map(
    originalTurns
      .flatMap((turn) => turn.blocks)
      .filter(isThinkingBlock)
      .map((located) => [thinkingKey(located), located]),
  );
  for (const located of compactedTurns.flatMap((turn) => turn.blocks).filter(isThinkingBlock)) {
    const source = thinkingByKey.get(thinkingKey(located));
    if (source === undefined || !deepEqual(source.block, located.block)) {
      violations.push({
        rule: 'compacted.reasoning-unmodified',
        path: located.path,
        message: `the ${blockType(located)} block is not one of the original's, unmodified`,
      });
    }
  }
  checkToolLoopThinking(originalTurns, compactedTurns, violations);
  return violations;
}

/** The user-written blocks (tool results set aside) of each user message that has any, a string as one text block. */
function userRequests(messages: readonly JSONRecord[]): unknown[][] {
  return messages.flatMap((message) => {
    if (message.role !== 'user') return [];
    const content = message.content;
    const blocks =
      typeof content === 'string' ? [{ type: 'text', text: content }] : (content as JSONRecord[]);
    const written = blocks.filter((block) => block.type !== 'tool_result');
    return written.length > 0 ? [written] : [];
  });
}

function blockIdKeys(located: AnthropicBlock): LocatedKey[] {
  const type = blockType(located);
  if (callTypes.has(type))
    return [{ key: `${type}:${stringField(located.block, 'id')}`, path: located.path }];
  if (resultTypes.has(type)) {
    return [{ key: `${type}:${stringField(located.block, 'tool_use_id')}`, path: located.path }];
  }
  return [];
}

function thinkingKey(located: AnthropicBlock): string {
  return `${blockType(located)}:${stringField(located.block, 'signature') ?? stringField(located.block, 'data')}`;
}

/**
 * When the compacted request ends inside the original's ongoing tool loop, that loop's assistant turn opens
 * with the same thinking blocks. A loop whose last turn also holds something the user wrote is over (the user
 * has spoken), and a compaction that removed the loop ends outside it: neither is held to this.
 */
function checkToolLoopThinking(
  original: readonly AnthropicTurn[],
  compacted: readonly AnthropicTurn[],
  violations: ContractViolation[],
): void {
  if (!endsInToolLoop(original)) return;
  if (original.at(-1)!.blocks.some((located) => blockType(located) !== 'tool_result')) return;
  const leading = leadingThinking(original.at(-2)!);
  if (leading.length === 0) return;
  // A compaction that removed the loop altogether ends outside it, where the API asks nothing of it.
  if (!endsInToolLoop(compacted)) return;
  const kept = leadingThinking(compacted.at(-2)!);
  if (!deepEqual(leading, kept)) {
    const turn = compacted.at(-2) ?? compacted.at(-1);
    violations.push({
      rule: 'compacted.tool-loop-thinking-kept',
      path: turn === undefined ? 'messages' : turnPath(turn),
      message:
        'the assistant turn of the ongoing tool loop no longer starts with its original thinking blocks',
    });
  }
}

function leadingThinking(turn: AnthropicTurn): JSONRecord[] {
  const end = turn.blocks.findIndex((located) => !isThinkingBlock(located));
  return turn.blocks.slice(0, end === -1 ? undefined : end).map((located) => located.block);
}
