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
  isCompactionNote,
  keptRuleViolations,
  type LocatedKey,
  openingBeforeAssistant,
  withoutCacheMarks,
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
  openingLength: openingBeforeAssistant,
  userRequests,
  idKeys: (messages) => anthropicTurns(messages).flatMap((turn) => turn.blocks.flatMap(blockIdKeys)),
};

/** The rules between a Messages request and its compaction (both of a readable shape). */
export function compactedAnthropicViolations(
  original: JSONRecord,
  compacted: JSONRecord,
): ContractViolation[] {
  const originalTurns = anthropicTurns(original.messages as JSONRecord[]);
  const compactedTurns = anthropicTurns(compacted.messages as JSONRecord[]);
  // A compaction block the original does not hold is the API's own compaction, which stands for the opening.
  const compactionBlocks = (turns: AnthropicTurn[]) =>
    turns.flatMap((turn) => turn.blocks).filter((located) => blockType(located) === 'compaction');
  const known = compactionBlocks(originalTurns);
  const byProvider = compactionBlocks(compactedTurns).some(
    (located) => !known.some((candidate) => deepEqual(candidate.block, located.block)),
  );
  // Anthropic's format joins a user message to the user turn before it: a later request of the user kept right
  // after the opening arrives as blocks after the task's own (which stay verbatim and first, so the prefix the
  // provider cached through them holds). Such blocks are set aside for the opening rule; anything else merged
  // into the opening (a note, a summary) is still reported.
  const openingViolations = keptRuleViolations(
    anthropicReading,
    original,
    withoutJoinedUserBlocks(original, compacted),
  ).filter((violation) => violation.rule === 'compacted.opening-kept');
  const violations = [
    ...keptRuleViolations(anthropicReading, original, compacted).filter(
      (violation) => violation.rule !== 'compacted.opening-kept',
    ),
    ...(byProvider ? [] : openingViolations),
  ];
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

/**
 * `compacted` with each message before its first model message that is an opening message of the original
 * with blocks of the original's later user messages (or a summary) around it put back as that opening
 * message: what Anthropic's format joined to the opening, not a change of it.
 */
function withoutJoinedUserBlocks(original: JSONRecord, compacted: JSONRecord): JSONRecord {
  const originalMessages = original.messages as JSONRecord[];
  const originalOpening = openingBeforeAssistant(originalMessages);
  const blocksOf = (message: JSONRecord): unknown[] =>
    (typeof message.content === 'string'
      ? [{ type: 'text', text: message.content }]
      : (message.content as unknown[])
    ).map(withoutCacheMarks);
  const later = originalMessages
    .slice(originalOpening)
    .filter((message) => message.role === 'user')
    .flatMap(blocksOf);
  const openingMessages = originalMessages
    .slice(0, originalOpening)
    .filter((message) => message.role === 'user');
  const compactedMessages = compacted.messages as JSONRecord[];
  const opening = openingBeforeAssistant(compactedMessages);
  const messages = compactedMessages.map((message, index) => {
    if (index >= opening || message.role !== 'user') return message;
    const blocks = blocksOf(message);
    const joinable = (block: unknown) =>
      later.some((candidate) => deepEqual(candidate, block)) || isSummaryBlock(block);
    const source = openingMessages.find((candidate) => {
      // A note or summary an earlier compaction joined to the opening is no part of it: the next one merges it
      // (a new note joined there is still reported).
      const own = blocksOf(candidate).filter((block) => !isNoteBlock(block));
      if (own.length > blocks.length) return false;
      for (let start = 0; start + own.length <= blocks.length; start++) {
        if (!own.every((block, position) => deepEqual(block, blocks[start + position]))) continue;
        const others = [...blocks.slice(0, start), ...blocks.slice(start + own.length)];
        if (others.every(joinable)) return true;
      }
      return false;
    });
    return source ?? message;
  });
  return { ...compacted, messages };
}

/**
 * Whether a block is a summarization's summary. Summarization places its summary in a user message next to the
 * task (before it by default, after it when reasoning follows), which Anthropic's format joins to the task's
 * message: a known gap of the opening rule, set aside here until summarization places it outside the opening
 * (docs/provider-contracts.md). Notes of the other strategies are still held to the rule.
 */
function isSummaryBlock(block: unknown): boolean {
  const text = (block as { type?: unknown; text?: unknown }).text;
  return typeof text === 'string' && /^\[Summary of \d+ earlier messages?, compaction round \d+/.test(text);
}

/** Whether a block is the text of a removal note or summary an earlier compaction wrote. */
function isNoteBlock(block: unknown): boolean {
  const { type, text } = block as { type?: unknown; text?: unknown };
  return type === 'text' && isCompactionNote(text);
}

/**
 * The user-written blocks of each user message that has any, a string as one text block. Tool results are set
 * aside, and so are the notes and summaries of earlier compactions: the format joins consecutive user content
 * into one message, so a note stands beside tool results or the user's own text, and only the user's text
 * is the request.
 */
function userRequests(messages: readonly JSONRecord[]): unknown[][] {
  return messages.flatMap((message) => {
    if (message.role !== 'user') return [];
    const content = message.content;
    const blocks =
      typeof content === 'string' ? [{ type: 'text', text: content }] : (content as JSONRecord[]);
    const written = blocks.filter(
      (block) => block.type !== 'tool_result' && !(block.type === 'text' && isCompactionNote(block.text)),
    );
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
