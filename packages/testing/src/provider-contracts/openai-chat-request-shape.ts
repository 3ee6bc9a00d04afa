import type { ContractViolation } from './contract-violation.js';
import { isJSONRecord, type JSONRecord } from './json-record.js';
import { type EntryLocation, requestShapeViolations, type ShapeChecker } from './request-shape-checks.js';

/** String fields a message of each role needs besides its content. */
const requiredStringsByRole: Readonly<Record<string, readonly string[]>> = {
  tool: ['tool_call_id'],
  function: ['name'],
};

/** Content part types each role may carry (SDK message param types); other known types are refused. */
export const openAIChatPartsByRole: Readonly<Record<string, ReadonlySet<string>>> = {
  system: new Set(['text']),
  developer: new Set(['text']),
  user: new Set(['text', 'image_url', 'input_audio', 'file']),
  assistant: new Set(['text', 'refusal']),
  tool: new Set(['text']),
  function: new Set(),
};

const roles: ReadonlySet<string> = new Set(Object.keys(openAIChatPartsByRole));

/**
 * The shape rule `openai-chat.request-shape`: a `messages` array of objects with a known role and the fields
 * that role needs (SDK types). Unknown content part types pass.
 */
export function openAIChatShapeViolations(request: unknown): ContractViolation[] {
  return requestShapeViolations(
    {
      rule: 'openai-chat.request-shape',
      listField: 'messages',
      entryName: 'message',
      listExpected: 'is not an array',
      emptyList: '`messages` is empty',
      checkEntry: checkMessage,
    },
    request,
  );
}

function checkMessage(message: JSONRecord, { path }: EntryLocation, shape: ShapeChecker): void {
  if (!shape.hasKnownRole(message, roles, path)) return;
  const { role, content } = message;
  const optional = role === 'assistant' || role === 'function';
  if (!(typeof content === 'string' || Array.isArray(content) || (optional && content == null))) {
    shape.report(`${path}.content`, `a ${role} message needs a string or an array of parts as content`);
  }
  if (Array.isArray(content)) {
    for (const { record: part, path: partPath } of shape.typedRecords(content, `${path}.content`, 'part')) {
      if (part.type === 'text' && typeof part.text !== 'string')
        shape.report(`${partPath}.text`, 'a text part needs a string `text`');
    }
  }
  shape.requiredStrings(message, role, requiredStringsByRole, path, 'message');
  if (role === 'assistant') checkAssistantCalls(message, path, shape);
}

function checkAssistantCalls(message: JSONRecord, path: string, shape: ShapeChecker): void {
  const toolCalls = message.tool_calls;
  if (toolCalls !== undefined && toolCalls !== null) {
    if (!Array.isArray(toolCalls)) {
      shape.report(`${path}.tool_calls`, '`tool_calls` is not an array');
    } else {
      for (const [index, call] of toolCalls.entries()) {
        const callPath = `${path}.tool_calls[${index}]`;
        if (!isJSONRecord(call) || typeof call.id !== 'string') {
          shape.report(callPath, 'a tool call needs a string `id`');
          continue;
        }
        // Other tool call types may come; they pass.
        if (call.type !== 'custom' && call.type !== 'function') continue;
        const body = call.type === 'custom' ? call.custom : call.function;
        const fields = call.type === 'custom' ? ['name', 'input'] : ['name', 'arguments'];
        if (!isJSONRecord(body) || fields.some((field) => typeof body[field] !== 'string')) {
          shape.report(
            `${callPath}.${call.type}`,
            `a ${call.type} tool call needs string ${fields.join(' and ')}`,
          );
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
    shape.report(`${path}.function_call`, '`function_call` needs a string name and arguments');
  }
}
