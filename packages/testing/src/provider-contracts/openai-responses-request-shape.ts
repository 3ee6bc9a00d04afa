import type { ContractViolation } from './contract-violation.js';
import { isJSONRecord } from './json-record.js';
import { openAIResponsesItemType } from './openai-responses-items.js';

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
  local_shell_call_output: ['id'],
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
  const violations: ContractViolation[] = [];
  const shape = (path: string, message: string) =>
    violations.push({ rule: 'openai-responses.request-shape', path, message });
  if (!isJSONRecord(request)) {
    shape('', 'the request is not a JSON object');
    return violations;
  }
  const { input, instructions } = request;
  if (instructions !== undefined && instructions !== null && typeof instructions !== 'string') {
    shape('instructions', '`instructions` is not a string');
  }
  if (typeof input === 'string') return violations;
  if (!Array.isArray(input)) {
    shape('input', '`input` is neither a string nor an array of items');
    return violations;
  }
  for (const [index, item] of input.entries()) {
    const path = `input[${index}]`;
    if (!isJSONRecord(item)) {
      shape(path, 'the item is not an object');
      continue;
    }
    if (item.type !== undefined && item.type !== null && typeof item.type !== 'string') {
      shape(`${path}.type`, 'the item type is not a string');
      continue;
    }
    const type = openAIResponsesItemType(item);
    if (type === 'message') {
      if (typeof item.role !== 'string' || !messageRoles.has(item.role)) {
        shape(`${path}.role`, `unknown message role ${JSON.stringify(item.role)}`);
        continue;
      }
      const content = item.content;
      if (typeof content === 'string') continue;
      if (!Array.isArray(content)) {
        shape(`${path}.content`, 'the content is neither a string nor an array');
        continue;
      }
      content.forEach((part, partIndex) => {
        if (!isJSONRecord(part) || typeof part.type !== 'string') {
          shape(`${path}.content[${partIndex}]`, 'the part is not an object with a string `type`');
        }
      });
      continue;
    }
    for (const field of requiredStrings[type] ?? []) {
      if (typeof item[field] !== 'string')
        shape(`${path}.${field}`, `a ${type} item needs a string \`${field}\``);
    }
  }
  return violations;
}
