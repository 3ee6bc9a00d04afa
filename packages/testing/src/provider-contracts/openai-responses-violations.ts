import type { ContractViolation } from './contract-violation.js';
import { type JSONRecord, recordField, stringField } from './json-record.js';
import {
  hasStoredContext,
  needsClientOutput,
  openAIResponsesCallIdOf,
  openAIResponsesCallTypeOfOutput,
  openAIResponsesInputItems,
  openAIResponsesItemType,
  openAIResponsesOutputTypeOfCall,
} from './openai-responses-items.js';
import { openAIResponsesShapeViolations } from './openai-responses-request-shape.js';

interface SeenCall {
  item: JSONRecord;
  type: string;
  path: string;
  outputs: number;
}

/**
 * Checks an OpenAI Responses request (`{ model?, input, instructions?, ... }`, plain JSON) against the rules of
 * `docs/provider-contracts.md` and lists what it breaks; empty when the API should accept it. With
 * `previous_response_id`, `conversation` or an `item_reference`, outputs and approvals may answer items the
 * input does not show, so those are not reported missing. Unknown item types pass; a malformed shape is
 * reported (and stops the other checks), never thrown.
 */
export function openAIResponsesViolations(request: unknown): ContractViolation[] {
  const shape = openAIResponsesShapeViolations(request);
  if (shape.length > 0) return shape;
  const record = request as JSONRecord;
  const items = openAIResponsesInputItems(record);
  const stored = hasStoredContext(record, items);
  const violations: ContractViolation[] = [];
  const report = (rule: string, path: string, message: string) => violations.push({ rule, path, message });
  const calls = new Map<string, SeenCall>();
  const later = new Map<string, number>();
  items.forEach((item, index) => {
    const callId = openAIResponsesCallIdOf(item);
    if (
      callId !== undefined &&
      openAIResponsesOutputTypeOfCall[openAIResponsesItemType(item)] !== undefined
    ) {
      later.set(callId, later.get(callId) ?? index);
    }
  });
  const ids = new Set<string>();
  const approvalRequests = new Set<string>();
  items.forEach((item, index) => {
    const path = `input[${index}]`;
    const type = openAIResponsesItemType(item);
    const id = stringField(item, 'id');
    if (id !== undefined && type !== 'item_reference') {
      if (ids.has(id)) report('openai-responses.unique-ids', `${path}.id`, `the item id ${id} is used twice`);
      ids.add(id);
    }
    const callId = openAIResponsesCallIdOf(item);
    if (callId !== undefined && openAIResponsesOutputTypeOfCall[type] !== undefined) {
      if (calls.has(callId))
        report('openai-responses.unique-ids', path, `the call id ${callId} is used twice`);
      else calls.set(callId, { item, type, path, outputs: 0 });
    }
    const answers = openAIResponsesCallTypeOfOutput[type];
    if (answers !== undefined && callId !== undefined) {
      const call = calls.get(callId);
      if (call === undefined) {
        if ((later.get(callId) ?? -1) > index) {
          report('openai-responses.output-has-call', path, `${type} ${callId} comes before its call`);
        } else if (!stored) {
          report('openai-responses.output-has-call', path, `${type} ${callId} answers no call in the input`);
        }
      } else if (call.type !== answers) {
        report(
          'openai-responses.output-has-call',
          path,
          `${type} ${callId} answers a ${call.type}, not a ${answers}`,
        );
      } else if (++call.outputs > 1) {
        report(
          'openai-responses.one-output-per-call',
          path,
          `${call.type} ${callId} has more than one output`,
        );
      }
    }
    const caller = recordField(item, 'caller');
    const program = caller?.type === 'program' ? stringField(caller, 'caller_id') : undefined;
    if (program !== undefined && calls.get(program)?.type !== 'program' && !stored) {
      report(
        'openai-responses.caller-refers-to-program',
        `${path}.caller`,
        `the caller ${program} is no program item before this one`,
      );
    }
    if (type === 'mcp_approval_request' && id !== undefined) approvalRequests.add(id);
    const approval = stringField(item, 'approval_request_id');
    if (
      (type === 'mcp_approval_response' || type === 'mcp_call') &&
      approval !== undefined &&
      !approvalRequests.has(approval) &&
      !stored
    ) {
      report(
        'openai-responses.mcp-approval-has-request',
        path,
        `${type} refers to approval request ${approval}, which is not before it`,
      );
    }
    if (type === 'reasoning') checkReasoningFollower(items, index, report);
    if (type === 'compaction_trigger' && index !== items.length - 1) {
      report(
        'openai-responses.compaction-trigger-last',
        path,
        'compaction_trigger must be the final input item',
      );
    }
  });
  for (const [callId, call] of calls) {
    if (call.outputs === 0 && needsClientOutput(call.item)) {
      report('openai-responses.call-answered', call.path, `${call.type} ${callId} has no output after it`);
    }
  }
  return violations;
}

/** Items that cannot be what a reasoning item came with: it was produced with a model output item. */
function checkReasoningFollower(
  items: readonly JSONRecord[],
  index: number,
  report: (rule: string, path: string, message: string) => void,
): void {
  const path = `input[${index}]`;
  const next = items[index + 1];
  if (next === undefined) {
    report(
      'openai-responses.reasoning-followed',
      path,
      'a reasoning item is the last input item; it must be followed by the item it came with',
    );
    return;
  }
  const type = openAIResponsesItemType(next);
  const refused =
    type === 'reasoning' ||
    type === 'mcp_approval_response' ||
    type.endsWith('_output') ||
    (type === 'message' && next.role !== 'assistant');
  if (refused) {
    const what = type === 'message' ? `a ${String(next.role)} message` : `a ${type} item`;
    report(
      'openai-responses.reasoning-followed',
      path,
      `a reasoning item is followed by ${what}, not by the item it came with`,
    );
  }
}
