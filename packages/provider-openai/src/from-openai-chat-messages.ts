import {
  type AssistantMessage,
  InvalidMessagesError,
  type JSONObject,
  type Message,
  type MessageIssue,
  type TextPart,
  type ToolResultContentPart,
} from '@compaction/core';
import {
  chatPartToCore,
  coreToChatPart,
  type OpenAIChatPart,
  refusalKey,
} from './openai-chat-content-parts.js';
import type {
  OpenAIChatContentPart,
  OpenAIChatMessage,
  OpenAIChatMessagesInput,
} from './openai-chat-request.js';
import { fieldsExcept, isObject, openaiMetadata, parseArguments } from './openai-metadata.js';

/** Message marker `content`: `parts` when the content was an array that a string could have replaced; `absent`. */
export const contentMarker = 'content';
/** Message marker `role`: `developer` for developer messages (core calls them system). */
export const roleMarker = 'role';
/** Message marker `toolCalls`: `empty` for an explicit empty `tool_calls` array. */
export const toolCallsMarker = 'toolCalls';
/** Tool-call marker `arguments`: the raw arguments string, when parsing it would not give it back. */
export const argumentsMarker = 'arguments';
/** Tool-call marker `call`: a tool call that is not a function call, kept verbatim. */
export const verbatimCallKey = 'call';

/**
 * Converts Chat Completions messages to core messages, losslessly: {@link toOpenAIChatMessages} gives back
 * equal messages.
 *
 * - `system` and `developer` become system messages (`metadata.openai.role` remembers `developer`);
 * - assistant `tool_calls` become tool-call parts with parsed inputs; arguments that are not JSON (or not in
 *   canonical form) keep their raw string in `metadata.openai.arguments`, and go back byte for byte;
 * - a `refusal` becomes a text part marked as such; each `tool` message becomes a tool message with one
 *   result, named after its call;
 * - fields core has no place for (`name`, `detail`, `audio`...) stay in `metadata.openai.fields`.
 *
 * Throws {@link InvalidMessagesError} for what is not a Chat Completions message (legacy `function` messages
 * included).
 */
export function fromOpenAIChatMessages(input: OpenAIChatMessagesInput): Message[] {
  // Plain JSON in practice; fields are read one by one.
  const messages = input as unknown as OpenAIChatMessage[];
  assertShape(messages);
  const toolNames = new Map<string, string>();
  return messages.map((message): Message => {
    switch (message.role) {
      case 'system':
      case 'developer': {
        const { parts, marker } = textContent(message.content, (parts) => encodeAsString(parts));
        return {
          role: 'system',
          content: parts.map((part) => (part.type === 'text' ? part : verbatimText(part))),
          ...openaiMetadata(
            { [roleMarker]: message.role === 'developer' ? 'developer' : undefined, [contentMarker]: marker },
            fieldsExcept(message, ['role', 'content']),
          ),
        };
      }
      case 'user': {
        const { parts, marker } = textContent(message.content, (parts) => encodeAsString(parts));
        return {
          role: 'user',
          content: parts,
          ...openaiMetadata({ [contentMarker]: marker }, fieldsExcept(message, ['role', 'content'])),
        };
      }
      case 'assistant':
        return assistantMessage(message, toolNames);
      default:
        return toolMessage(message, toolNames);
    }
  });
}

function assistantMessage(message: OpenAIChatMessage, toolNames: Map<string, string>): AssistantMessage {
  // With no text, the default encoding writes `content: null`; with one plain text part, a string.
  const { parts, marker } = textContent(
    message.content,
    (parts) => parts.length === 0 || encodeAsString(parts),
  );
  const content: AssistantMessage['content'] = parts.map((part) =>
    part.type === 'text' ? part : verbatimText(part),
  );
  const consumed = ['role', 'content', 'tool_calls'];
  if (typeof message.refusal === 'string') {
    content.push({ type: 'text', text: message.refusal, metadata: { openai: { [refusalKey]: 'field' } } });
    consumed.push('refusal');
  }
  for (const call of message.tool_calls ?? []) {
    const fn = call.function;
    if (
      call.type === 'function' &&
      isObject(fn) &&
      typeof fn.name === 'string' &&
      typeof fn.arguments === 'string'
    ) {
      const { input, arguments: raw } = parseArguments(fn.arguments);
      toolNames.set(call.id, fn.name);
      content.push({
        type: 'tool-call',
        toolCallId: call.id,
        toolName: fn.name,
        input,
        ...openaiMetadata(
          { [argumentsMarker]: raw },
          {
            ...fieldsExcept(call, ['id', 'type', 'function']),
            ...prefixed(fieldsExcept(fn, ['name', 'arguments'])),
          },
        ),
      });
    } else {
      const custom = isObject(call.custom) ? call.custom : {};
      const name = typeof custom.name === 'string' ? custom.name : call.type;
      toolNames.set(call.id, name);
      content.push({
        type: 'tool-call',
        toolCallId: call.id,
        toolName: name,
        input: custom.input ?? null,
        metadata: { openai: { [verbatimCallKey]: call as JSONObject } },
      });
    }
  }
  const toolCalls =
    Array.isArray(message.tool_calls) && message.tool_calls.length === 0 ? 'empty' : undefined;
  return {
    role: 'assistant',
    content,
    ...openaiMetadata(
      { [contentMarker]: marker, [toolCallsMarker]: toolCalls },
      fieldsExcept(message, consumed),
    ),
  };
}

function toolMessage(message: OpenAIChatMessage, toolNames: Map<string, string>): Message {
  const toolCallId = message.tool_call_id as string;
  // Core keeps string and part outputs apart, so only a missing or null content needs a marker.
  const content = message.content;
  const output: string | ToolResultContentPart[] =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((part) => chatPartToCore(part))
        : '';
  const marker = content === undefined ? 'absent' : content === null ? 'null' : undefined;
  return {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId,
        toolName: toolNames.get(toolCallId) ?? (typeof message.name === 'string' ? message.name : ''),
        output,
        ...openaiMetadata(
          { [contentMarker]: marker },
          fieldsExcept(message, ['role', 'content', 'tool_call_id']),
        ),
      },
    ],
  };
}

/**
 * Parts of a `content` field and the marker that tells how to write it back: `absent` for no field,
 * `null` kept as no parts, `parts` for an array the default encoding would not write as an array.
 */
function textContent(
  content: OpenAIChatMessage['content'],
  wouldNotBeArray: (parts: OpenAIChatPart[]) => boolean,
): { parts: OpenAIChatPart[]; marker: string | undefined } {
  if (content === undefined) return { parts: [], marker: 'absent' };
  if (content === null) return { parts: [], marker: undefined };
  if (typeof content === 'string') return { parts: [{ type: 'text', text: content }], marker: undefined };
  const parts = content.map((part) => chatPartToCore(part));
  return { parts, marker: wouldNotBeArray(parts) ? 'parts' : undefined };
}

/** Whether the default encoding writes these parts as a plain string: one text part without metadata. */
export function encodeAsString(parts: readonly OpenAIChatPart[]): boolean {
  return parts.length === 1 && parts[0]!.type === 'text' && parts[0]!.metadata === undefined;
}

function verbatimText(part: OpenAIChatPart): TextPart {
  return {
    type: 'text',
    text: JSON.stringify(coreToChatPart(part)),
    metadata: { openai: { part: coreToChatPart(part) as JSONObject } },
  };
}

/** Extra fields of `function` are stored with a `function.` prefix, apart from the call's own. */
function prefixed(fields: JSONObject): JSONObject {
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [`function.${key}`, value]));
}

function assertShape(messages: OpenAIChatMessage[]): void {
  if (!Array.isArray(messages)) {
    throw new InvalidMessagesError({
      issues: [{ index: -1, path: '', message: 'expected an array of messages' }],
    });
  }
  const issues: MessageIssue[] = [];
  messages.forEach((message, index) => {
    if (!isObject(message)) {
      issues.push({ index, path: '', message: 'expected a message object' });
      return;
    }
    const role = message.role;
    if (!['system', 'developer', 'user', 'assistant', 'tool'].includes(role)) {
      issues.push({ index, path: 'role', message: `unsupported role ${JSON.stringify(role)}` });
      return;
    }
    const content = message.content;
    if (content !== undefined && content !== null && typeof content !== 'string') {
      if (!Array.isArray(content))
        issues.push({ index, path: 'content', message: 'must be a string or an array' });
      else
        content.forEach((part: OpenAIChatContentPart, partIndex) => {
          if (!isObject(part) || typeof part.type !== 'string') {
            issues.push({ index, path: `content[${partIndex}]`, message: 'must be a part with a type' });
          }
        });
    }
    if (role === 'tool' && typeof message.tool_call_id !== 'string') {
      issues.push({ index, path: 'tool_call_id', message: 'a tool message needs a tool_call_id' });
    }
    if (message.tool_calls !== undefined) {
      if (!Array.isArray(message.tool_calls))
        issues.push({ index, path: 'tool_calls', message: 'must be an array' });
      else
        message.tool_calls.forEach((call, callIndex) => {
          if (!isObject(call) || typeof call.id !== 'string' || typeof call.type !== 'string') {
            issues.push({ index, path: `tool_calls[${callIndex}]`, message: 'must have an id and a type' });
          }
        });
    }
  });
  if (issues.length > 0) throw new InvalidMessagesError({ issues });
}
