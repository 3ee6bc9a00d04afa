import type { ContractViolation } from './contract-violation.js';
import type { JSONRecord } from './json-record.js';
import { openAIResponsesCallIdOf, openAIResponsesItemType } from './openai-responses-items.js';
import { type EntryLocation, requestShapeViolations, type ShapeChecker } from './request-shape-checks.js';

const messageRoles = new Set(['user', 'assistant', 'system', 'developer']);

/** String fields each known item type needs to be paired (SDK param types); unknown types pass. */
const requiredStrings: Record<string, readonly string[]> = {
  function_call: ['call_id', 'name', 'arguments'],
  custom_tool_call: ['call_id', 'name', 'input'],
  computer_call: ['call_id'],
  local_shell_call: ['call_id'],
  shell_call: ['call_id'],
  apply_patch_call: ['call_id'],
  program: ['call_id'],
  function_call_output: ['call_id'],
  custom_tool_call_output: ['call_id'],
  computer_call_output: ['call_id'],
  shell_call_output: ['call_id'],
  apply_patch_call_output: ['call_id'],
  program_output: ['call_id'],
  mcp_approval_request: ['id'],
  mcp_approval_response: ['approval_request_id'],
  item_reference: ['id'],
};

/**
 * The shape rule `openai-responses.request-shape`: `input` a string or an array of items, each item an object
 * with a `type` (or a message `role`) and the ids its type needs; `instructions` a string when present.
 */
export function openAIResponsesShapeViolations(request: unknown): ContractViolation[] {
  return requestShapeViolations(
    {
      rule: 'openai-responses.request-shape',
      listField: 'input',
      entryName: 'item',
      listExpected: 'is neither a string nor an array of items',
      stringList: true,
      checkFields: ({ instructions }, shape) => {
        if (instructions !== undefined && instructions !== null && typeof instructions !== 'string') {
          shape.report('instructions', '`instructions` is not a string');
        }
      },
      checkEntry: checkItem,
    },
    request,
  );
}

function checkItem(item: JSONRecord, { path }: EntryLocation, shape: ShapeChecker): void {
  if (item.type !== undefined && item.type !== null && typeof item.type !== 'string') {
    shape.report(`${path}.type`, 'the item type is not a string');
    return;
  }
  const type = openAIResponsesItemType(item);
  if (type === 'local_shell_call_output' && openAIResponsesCallIdOf(item) === undefined) {
    // `call_id` is what the API reads; the SDK's type names it `id`.
    shape.report(`${path}.call_id`, 'a local_shell_call_output item needs a string `call_id` (or `id`)');
  }
  if (type !== 'message') {
    shape.requiredStrings(item, type, requiredStrings, path, 'item');
    return;
  }
  if (!shape.hasKnownRole(item, messageRoles, path, 'message role')) return;
  const content = item.content;
  if (Array.isArray(content)) shape.typedRecords(content, `${path}.content`, 'part');
  else if (typeof content !== 'string')
    shape.report(`${path}.content`, 'the content is neither a string nor an array');
}
