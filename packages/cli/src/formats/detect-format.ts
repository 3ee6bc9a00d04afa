import { findMessageIssues } from '@compaction/core';
import { type FormatName, isRecord } from './conversation-format.js';

const chatRoles = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);
const responsesItemTypes = new Set([
  'message',
  'function_call',
  'function_call_output',
  'reasoning',
  'custom_tool_call',
  'custom_tool_call_output',
  'item_reference',
]);
const anthropicBlockTypes = new Set([
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'document',
  'server_tool_use',
]);

/**
 * Recognises the format of a parsed JSON input, or returns `undefined`. Core JSON wins when the messages are
 * valid core messages; provider formats are told apart by what only they have (Anthropic: a top-level
 * `system`, `tool_use`/`tool_result` blocks; OpenAI Chat: `tool_calls`, `tool` and `system` roles).
 */
export function detectFormat(value: unknown): FormatName | undefined {
  if (Array.isArray(value)) {
    if (value.length > 0 && findMessageIssues(value).length === 0) return 'core';
    if (value.length > 0 && value.every(isResponsesItem)) return 'openai-responses';
    if (value.length > 0 && value.every(isChatMessage)) return 'openai-chat';
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  if (Array.isArray(value.input) || (typeof value.input === 'string' && value.messages === undefined)) {
    return 'openai-responses';
  }
  const messages = value.messages;
  if (!Array.isArray(messages)) return undefined;
  if (messages.length > 0 && findMessageIssues(messages).length === 0) return 'core';
  if (value.system !== undefined || messages.some(hasAnthropicBlocks)) return 'anthropic';
  if (messages.every(isChatMessage)) return 'openai-chat';
  return undefined;
}

function isChatMessage(message: unknown): boolean {
  if (!isRecord(message) || typeof message.role !== 'string' || !chatRoles.has(message.role)) return false;
  const content = message.content;
  return (
    content === undefined ||
    content === null ||
    typeof content === 'string' ||
    (Array.isArray(content) && content.every((part) => isRecord(part) && typeof part.type === 'string'))
  );
}

function isResponsesItem(item: unknown): boolean {
  if (!isRecord(item)) return false;
  if (typeof item.type === 'string') return responsesItemTypes.has(item.type);
  // An easy input message: `{role, content}` without `type`.
  return (
    typeof item.role === 'string' &&
    ['user', 'assistant', 'system', 'developer'].includes(item.role) &&
    item.tool_calls === undefined &&
    item.tool_call_id === undefined
  );
}

function hasAnthropicBlocks(message: unknown): boolean {
  return (
    isRecord(message) &&
    Array.isArray(message.content) &&
    message.content.some(
      (block) => isRecord(block) && typeof block.type === 'string' && anthropicBlockTypes.has(block.type),
    )
  );
}
