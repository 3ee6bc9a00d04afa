import { deepEqual } from '@compaction/core';
import {
  type CompactedRequestReading,
  isCompactionNote,
  keptRuleViolations,
  type LocatedKey,
} from './compacted-rule-helpers.js';
import type { ContractViolation } from './contract-violation.js';
import { type JSONRecord, stringField } from './json-record.js';
import {
  openAIResponsesCallIdOf,
  openAIResponsesInputItems,
  openAIResponsesItemType,
} from './openai-responses-items.js';

const isInstruction = (item: JSONRecord) =>
  openAIResponsesItemType(item) === 'message' && (item.role === 'system' || item.role === 'developer');
const isUserMessage = (item: JSONRecord) =>
  openAIResponsesItemType(item) === 'message' && item.role === 'user';

const responsesReading: CompactedRequestReading = {
  entries: openAIResponsesInputItems,
  listField: 'input',
  systemPrompt: { field: 'instructions', changed: '`instructions` changed' },
  isSystemMessage: isInstruction,
  systemMessageName: 'system or developer message',
  settings: ['model', 'tools', 'tool_choice', 'reasoning', 'include', 'previous_response_id', 'conversation'],
  // Developer messages and messages holding the environment open the input as much as the task does.
  openingLength: (items) => {
    const first = items.findIndex((item) => !isInstruction(item) && !isUserMessage(item));
    return first === -1 ? items.length : first;
  },
  comparable: (item) =>
    isUserMessage(item) && typeof item.content === 'string'
      ? { ...item, content: [{ type: 'input_text', text: item.content }] }
      : item,
  userRequests,
  idKeys,
};

/** The rules between a Responses request and its compaction (both of a readable shape). */
export function compactedOpenAIResponsesViolations(
  original: JSONRecord,
  compacted: JSONRecord,
): ContractViolation[] {
  const windowEnd = providerWindowEnd(
    openAIResponsesInputItems(original),
    openAIResponsesInputItems(compacted),
  );
  // The window `responses.compact` returned (its user messages and the compaction item) is the API's own,
  // and it stands for the opening too.
  const violations = keptRuleViolations(responsesReading, original, compacted).filter(
    (violation) =>
      (violation.rule !== 'compacted.nothing-invented' || itemIndex(violation.path) > windowEnd) &&
      (violation.rule !== 'compacted.opening-kept' || windowEnd === -1),
  );
  checkReasoning(openAIResponsesInputItems(original), openAIResponsesInputItems(compacted), violations);
  return violations;
}

/**
 * The index of the last compaction item the compacted request holds that the original does not (the end of a
 * window the API returned from `responses.compact`, which holds "all user messages, followed by a single
 * compaction item", ids of its own included); -1 when there is none.
 */
function providerWindowEnd(original: readonly JSONRecord[], compacted: readonly JSONRecord[]): number {
  const isCompaction = (item: JSONRecord) => openAIResponsesItemType(item) === 'compaction';
  const known = original.filter(isCompaction);
  for (let index = compacted.length - 1; index >= 0; index--) {
    const item = compacted[index]!;
    if (isCompaction(item) && !known.some((candidate) => deepEqual(candidate, item))) return index;
  }
  return -1;
}

function itemIndex(path: string): number {
  return Number(/^input\[(\d+)\]/.exec(path)?.[1] ?? Number.POSITIVE_INFINITY);
}

/**
 * The content of each user message read as parts, so a string input equals its one-part message; the notes
 * and summaries of earlier compactions, which stand in user messages, set aside as no request.
 */
function userRequests(items: readonly JSONRecord[]): unknown[][] {
  return items.filter(isUserMessage).flatMap((message) => {
    const content = message.content;
    const parts =
      typeof content === 'string' ? [{ type: 'input_text', text: content }] : (content as JSONRecord[]);
    const written = parts.filter((part) => !(part.type === 'input_text' && isCompactionNote(part.text)));
    return written.length > 0 ? [written] : [];
  });
}

/** `type:call_id` for calls and outputs and `id:id` for item ids, with their paths. */
function idKeys(items: readonly JSONRecord[]): LocatedKey[] {
  return items.flatMap((item, index) => {
    const path = `input[${index}]`;
    const type = openAIResponsesItemType(item);
    const keys: LocatedKey[] = [];
    const callId = openAIResponsesCallIdOf(item);
    if (callId !== undefined) keys.push({ key: `${type}:${callId}`, path });
    const id = stringField(item, 'id');
    // A local shell call output without `call_id` uses its `id` as the call's id, not as its own.
    const ownId = type !== 'local_shell_call_output' || stringField(item, 'call_id') !== undefined;
    if (id !== undefined && ownId) keys.push({ key: `id:${id}`, path });
    return keys;
  });
}

/**
 * Reasoning items come back unmodified, and an item that came with a reasoning item keeps it right before it.
 */
function checkReasoning(
  original: readonly JSONRecord[],
  compacted: readonly JSONRecord[],
  violations: ContractViolation[],
): void {
  const isReasoning = (item: JSONRecord | undefined) =>
    item !== undefined && openAIResponsesItemType(item) === 'reasoning';
  const reasoningKey = (item: JSONRecord) =>
    stringField(item, 'id') ?? stringField(item, 'encrypted_content');
  const originalReasoning = new Map(original.filter(isReasoning).map((item) => [reasoningKey(item), item]));
  compacted.forEach((item, index) => {
    if (!isReasoning(item)) return;
    const source = originalReasoning.get(reasoningKey(item));
    if (source === undefined || !deepEqual(source, item)) {
      violations.push({
        rule: 'compacted.reasoning-unmodified',
        path: `input[${index}]`,
        message: "the reasoning item is not one of the original's, unmodified",
      });
    }
  });
  const compactedIndexById = new Map<string, number>();
  compacted.forEach((item, index) => {
    const id = stringField(item, 'id');
    if (id !== undefined) compactedIndexById.set(id, index);
  });
  original.forEach((item, index) => {
    const reasoning = original[index - 1];
    const id = stringField(item, 'id');
    if (!isReasoning(reasoning) || isReasoning(item) || id === undefined) return;
    const kept = compactedIndexById.get(id);
    if (kept === undefined) return;
    const before = compacted[kept - 1];
    // A modified reasoning item is reported on its own; here only its place counts.
    if (!isReasoning(before) || reasoningKey(before!) !== reasoningKey(reasoning!)) {
      violations.push({
        rule: 'compacted.reasoning-kept-with-item',
        path: `input[${kept}]`,
        message: `item ${id} came with reasoning item ${String(reasoning!.id)}, which no longer comes right before it`,
      });
    }
  });
}
