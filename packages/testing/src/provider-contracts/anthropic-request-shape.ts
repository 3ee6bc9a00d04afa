import type { ContractViolation } from './contract-violation.js';
import { isJSONRecord, type JSONRecord } from './json-record.js';

const roles = new Set(['user', 'assistant', 'system']);

/** String fields each known block type must carry (SDK param types); unknown types pass. */
const requiredStrings: Record<string, readonly string[]> = {
  text: ['text'],
  thinking: ['thinking', 'signature'],
  redacted_thinking: ['data'],
  tool_use: ['id', 'name'],
  server_tool_use: ['id', 'name'],
  mcp_tool_use: ['id', 'name', 'server_name'],
  tool_result: ['tool_use_id'],
  mcp_tool_result: ['tool_use_id'],
  web_search_tool_result: ['tool_use_id'],
  web_fetch_tool_result: ['tool_use_id'],
  code_execution_tool_result: ['tool_use_id'],
  bash_code_execution_tool_result: ['tool_use_id'],
  text_editor_code_execution_tool_result: ['tool_use_id'],
  tool_search_tool_result: ['tool_use_id'],
  advisor_tool_result: ['tool_use_id'],
  container_upload: ['file_id'],
};

/**
 * The shape rules of a Messages request: `anthropic.request-shape` (what the SDK types require) and
 * `anthropic.non-empty-content` (what the API refuses as empty). When the shape is broken the other rules are
 * not checked, so the list is the first thing to fix.
 */
export function anthropicShapeViolations(request: unknown): ContractViolation[] {
  const violations: ContractViolation[] = [];
  const shape = (path: string, message: string) =>
    violations.push({ rule: 'anthropic.request-shape', path, message });
  if (!isJSONRecord(request)) {
    shape('', 'the request is not a JSON object');
    return violations;
  }
  const { messages, system, thinking, tools } = request;
  if (!Array.isArray(messages)) {
    shape('messages', '`messages` is not an array');
    return violations;
  }
  if (messages.length === 0) shape('messages', '`messages` is empty; at least one message is required');
  if (system !== undefined && typeof system !== 'string') checkTextBlocks(system, 'system', shape);
  if (
    thinking !== undefined &&
    thinking !== null &&
    !(isJSONRecord(thinking) && typeof thinking.type === 'string')
  ) {
    shape('thinking', '`thinking` is not an object with a `type`');
  }
  if (tools !== undefined && !(Array.isArray(tools) && tools.every(isJSONRecord))) {
    shape('tools', '`tools` is not an array of objects');
  }
  for (const [index, message] of messages.entries()) {
    const path = `messages[${index}]`;
    if (!isJSONRecord(message)) {
      shape(path, 'the message is not an object');
      continue;
    }
    if (typeof message.role !== 'string' || !roles.has(message.role)) {
      shape(`${path}.role`, `unknown role ${JSON.stringify(message.role)}`);
      continue;
    }
    const content = message.content;
    if (typeof content === 'string') {
      if (!(index === messages.length - 1 && message.role === 'assistant'))
        checkText(content, `${path}.content`, false);
      continue;
    }
    if (!Array.isArray(content)) {
      shape(`${path}.content`, 'the content is neither a string nor an array');
      continue;
    }
    if (message.role === 'system') {
      checkTextBlocks(content, `${path}.content`, shape);
      continue;
    }
    if (content.length === 0 && !(index === messages.length - 1 && message.role === 'assistant')) {
      empty(`${path}.content`, 'the content is empty; only a final assistant message may be');
    }
    // Whitespace-only text is refused only when the message has no other text to say.
    const hasText = content.some(
      (block) => isJSONRecord(block) && typeof block.text === 'string' && block.text.trim().length > 0,
    );
    const finalAssistant = index === messages.length - 1 && message.role === 'assistant';
    for (const [blockIndex, block] of content.entries()) {
      checkBlock(block, `${path}.content[${blockIndex}]`, hasText || finalAssistant);
    }
  }
  return violations;

  function checkBlock(block: unknown, path: string, whitespaceAllowed: boolean): void {
    if (!isJSONRecord(block) || typeof block.type !== 'string') {
      shape(path, 'the block is not an object with a string `type`');
      return;
    }
    for (const field of requiredStrings[block.type] ?? []) {
      if (typeof block[field] !== 'string')
        shape(`${path}.${field}`, `a ${block.type} block needs a string \`${field}\``);
    }
    if (block.type === 'text' && typeof block.text === 'string')
      checkText(block.text, `${path}.text`, whitespaceAllowed);
  }

  function checkText(text: string, path: string, whitespaceAllowed: boolean): void {
    if (text.length === 0) empty(path, 'the text is empty');
    else if (!whitespaceAllowed && text.trim().length === 0)
      empty(path, 'the message holds only whitespace text');
  }

  function empty(path: string, message: string): void {
    violations.push({ rule: 'anthropic.non-empty-content', path, message });
  }
}

function checkTextBlocks(value: unknown, path: string, shape: (path: string, message: string) => void): void {
  if (!Array.isArray(value)) {
    shape(path, 'expected a string or an array of text blocks');
    return;
  }
  value.forEach((block, index) => {
    if (!isJSONRecord(block) || block.type !== 'text' || typeof block.text !== 'string') {
      shape(`${path}[${index}]`, 'only text blocks are allowed here');
    }
  });
}

/** The messages of a request whose shape passed {@link anthropicShapeViolations}. */
export function anthropicMessagesOf(request: JSONRecord): JSONRecord[] {
  return request.messages as JSONRecord[];
}
