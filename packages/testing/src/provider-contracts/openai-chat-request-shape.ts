import type { ContractViolation } from './contract-violation.js';
import { isJSONRecord, type JSONRecord } from './json-record.js';

/** Content part types each role may carry (SDK message param types); other known types are refused. */
export const openAIChatPartsByRole: Readonly<Record<string, ReadonlySet<string>>> = {
  system: new Set(['text']),
  developer: new Set(['text']),
  user: new Set(['text', 'image_url', 'input_audio', 'file']),
  assistant: new Set(['text', 'refusal']),
  tool: new Set(['text']),
  function: new Set(),
};

/**
 * The shape rule `openai-chat.request-shape`: a `messages` array of objects with a known role and the fields
 * that role needs (SDK types). Unknown content part types pass.
 */
export function openAIChatShapeViolations(request: unknown): ContractViolation[] {
  const violations: ContractViolation[] = [];
  const shape = (path: string, message: string) =>
    violations.push({ rule: 'openai-chat.request-shape', path, message });
  if (!isJSONRecord(request)) {
    shape('', 'the request is not a JSON object');
    return violations;
  }
  const messages = request.messages;
  if (!Array.isArray(messages)) {
    shape('messages', '`messages` is not an array');
    return violations;
  }
  if (messages.length === 0) shape('messages', '`messages` is empty');
  for (const [index, message] of messages.entries()) {
    const path = `messages[${index}]`;
    if (!isJSONRecord(message)) {
      shape(path, 'the message is not an object');
      continue;
    }
    const role = message.role;
    if (typeof role !== 'string' || openAIChatPartsByRole[role] === undefined) {
      shape(`${path}.role`, `unknown role ${JSON.stringify(role)}`);
      continue;
    }
    const content = message.content;
    const optional = role === 'assistant' || role === 'function';
    if (!(typeof content === 'string' || Array.isArray(content) || (optional && content == null))) {
      shape(`${path}.content`, `a ${role} message needs a string or an array of parts as content`);
    }
    if (Array.isArray(content)) {
      content.forEach((part, partIndex) => {
        if (!isJSONRecord(part) || typeof part.type !== 'string') {
          shape(`${path}.content[${partIndex}]`, 'the part is not an object with a string `type`');
        } else if (part.type === 'text' && typeof part.text !== 'string') {
          shape(`${path}.content[${partIndex}].text`, 'a text part needs a string `text`');
        }
      });
    }
    if (role === 'tool' && typeof message.tool_call_id !== 'string') {
      shape(`${path}.tool_call_id`, 'a tool message needs a string `tool_call_id`');
    }
    if (role === 'function' && typeof message.name !== 'string') {
      shape(`${path}.name`, 'a function message needs a string `name`');
    }
    if (role === 'assistant') checkAssistantCalls(message, path, shape);
  }
  return violations;
}

function checkAssistantCalls(
  message: JSONRecord,
  path: string,
  shape: (path: string, message: string) => void,
) {
  const toolCalls = message.tool_calls;
  if (toolCalls !== undefined && toolCalls !== null) {
    if (!Array.isArray(toolCalls)) {
      shape(`${path}.tool_calls`, '`tool_calls` is not an array');
    } else {
      for (const [index, call] of toolCalls.entries()) {
        const callPath = `${path}.tool_calls[${index}]`;
        if (!isJSONRecord(call) || typeof call.id !== 'string') {
          shape(callPath, 'a tool call needs a string `id`');
          continue;
        }
        // Other tool call types may come; they pass.
        if (call.type !== 'custom' && call.type !== 'function') continue;
        const body = call.type === 'custom' ? call.custom : call.function;
        const fields = call.type === 'custom' ? ['name', 'input'] : ['name', 'arguments'];
        if (!isJSONRecord(body) || fields.some((field) => typeof body[field] !== 'string')) {
          shape(`${callPath}.${call.type}`, `a ${call.type} tool call needs string ${fields.join(' and ')}`);
        }
      }
    }
  }
  const functionCall = message.function_call;
  if (
    functionCall !== undefined &&
    functionCall !== null &&
    !(
      isJSONRecord(functionCall) &&
      typeof functionCall.name === 'string' &&
      typeof functionCall.arguments === 'string'
    )
  ) {
    shape(`${path}.function_call`, '`function_call` needs a string name and arguments');
  }
}
