import { anthropicServerToolResultTypes } from './anthropic-turns.js';
import type { ContractViolation } from './contract-violation.js';
import { isJSONRecord, type JSONRecord } from './json-record.js';
import { type EntryLocation, requestShapeViolations, type ShapeChecker } from './request-shape-checks.js';

const roles = new Set(['user', 'assistant', 'system']);

/** String fields each known block type must carry (SDK param types); unknown types pass. */
const requiredStrings: Record<string, readonly string[]> = {
  text: ['text'],
  thinking: ['thinking', 'signature'],
  redacted_thinking: ['data'],
  tool_use: ['id', 'name'],
  server_tool_use: ['id', 'name'],
  mcp_tool_use: ['id', 'name', 'server_name'],
  container_upload: ['file_id'],
  // Every result block names the call it answers.
  ...Object.fromEntries(
    ['tool_result', 'mcp_tool_result', ...anthropicServerToolResultTypes].map((type) => [
      type,
      ['tool_use_id'],
    ]),
  ),
};

/**
 * The shape rules of a Messages request: `anthropic.request-shape` (what the SDK types require) and
 * `anthropic.non-empty-content` (what the API refuses as empty). When the shape is broken the other rules are
 * not checked, so the list is the first thing to fix.
 */
export function anthropicShapeViolations(request: unknown): ContractViolation[] {
  const violations: ContractViolation[] = [];
  const empty = (path: string, message: string) =>
    violations.push({ rule: 'anthropic.non-empty-content', path, message });
  return requestShapeViolations(
    {
      rule: 'anthropic.request-shape',
      listField: 'messages',
      entryName: 'message',
      listExpected: 'is not an array',
      emptyList: '`messages` is empty; at least one message is required',
      checkFields: checkSettings,
      checkEntry: (message, location, shape) => checkMessage(message, location, shape, empty),
    },
    request,
    violations,
  );
}

function checkSettings({ system, thinking, tools }: JSONRecord, shape: ShapeChecker): void {
  if (system !== undefined && typeof system !== 'string') checkTextBlocks(system, 'system', shape);
  if (
    thinking !== undefined &&
    thinking !== null &&
    !(isJSONRecord(thinking) && typeof thinking.type === 'string')
  ) {
    shape.report('thinking', '`thinking` is not an object with a `type`');
  }
  if (tools !== undefined && !(Array.isArray(tools) && tools.every(isJSONRecord))) {
    shape.report('tools', '`tools` is not an array of objects');
  }
}

function checkMessage(
  message: JSONRecord,
  { path, last }: EntryLocation,
  shape: ShapeChecker,
  empty: ShapeChecker['report'],
): void {
  if (!shape.hasKnownRole(message, roles, path)) return;
  // A final assistant message is a prefill, which may be empty or end in whitespace.
  const prefill = last && message.role === 'assistant';
  const content = message.content;
  if (typeof content === 'string') {
    if (!prefill) checkText(content, `${path}.content`, false, empty);
    return;
  }
  if (!Array.isArray(content)) {
    shape.report(`${path}.content`, 'the content is neither a string nor an array');
    return;
  }
  if (message.role === 'system') {
    checkTextBlocks(content, `${path}.content`, shape);
    return;
  }
  if (content.length === 0 && !prefill) {
    empty(`${path}.content`, 'the content is empty; only a final assistant message may be');
  }
  // Whitespace-only text is refused only when the message has no other text to say.
  const hasText = content.some(
    (block) => isJSONRecord(block) && typeof block.text === 'string' && block.text.trim().length > 0,
  );
  for (const { record: block, path: blockPath } of shape.typedRecords(content, `${path}.content`, 'block')) {
    shape.requiredStrings(block, block.type, requiredStrings, blockPath, 'block');
    if (block.type === 'text' && typeof block.text === 'string')
      checkText(block.text, `${blockPath}.text`, hasText || prefill, empty);
  }
}

function checkText(
  text: string,
  path: string,
  whitespaceAllowed: boolean,
  empty: ShapeChecker['report'],
): void {
  if (text.length === 0) empty(path, 'the text is empty');
  else if (!whitespaceAllowed && text.trim().length === 0)
    empty(path, 'the message holds only whitespace text');
}

function checkTextBlocks(value: unknown, path: string, shape: ShapeChecker): void {
  if (!Array.isArray(value)) {
    shape.report(path, 'expected a string or an array of text blocks');
    return;
  }
  value.forEach((block, index) => {
    if (!isJSONRecord(block) || block.type !== 'text' || typeof block.text !== 'string') {
      shape.report(`${path}[${index}]`, 'only text blocks are allowed here');
    }
  });
}

/** The messages of a request whose shape passed {@link anthropicShapeViolations}. */
export function anthropicMessagesOf(request: JSONRecord): JSONRecord[] {
  return request.messages as JSONRecord[];
}
