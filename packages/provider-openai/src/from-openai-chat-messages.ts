import {
  type AssistantMessage,
  InvalidMessagesError,
  isJSONValue,
  type JSONObject,
  type Message,
  type TextPart,
  type ToolResultContentPart,
  type ToolResultPart,
} from '@compaction/core';
import { assertEntries, keyOrderDifference, notPlainJsonIssue } from '@compaction/provider-utils';
import {
  chatPartToCore,
  coreToChatPart,
  type OpenAIChatPart,
  refusalKey,
  verbatimChatPart,
} from './openai-chat-content-parts.js';
import { openaiChatMarkers } from './openai-chat-markers.js';
import { encodeAsString, writeChatMessage } from './openai-chat-message-writer.js';
import type {
  OpenAIChatContentPart,
  OpenAIChatMessage,
  OpenAIChatMessagesInput,
} from './openai-chat-request.js';
import {
  fieldsExcept,
  isObject,
  openaiMetadata,
  openaiMetadataOf,
  parseArguments,
} from './openai-metadata.js';

/**
 * Converts Chat Completions messages to core messages, losslessly: {@link toOpenAIChatMessages} gives back
 * the same messages, byte for byte once serialized (key order included).
 *
 * - `system` and `developer` become system messages (`metadata.openai.role` remembers `developer`);
 * - assistant `tool_calls` become tool-call parts with parsed inputs; arguments that are not JSON (or not in
 *   canonical form) keep their raw string in `metadata.openai.arguments`, and go back byte for byte;
 * - a `refusal` becomes a text part marked as such; each `tool` message becomes a tool message with one
 *   result, named after its call;
 * - the deprecated function calling is read too: an assistant's `function_call` becomes a tool call with the
 *   id `function_call_<index of the message>` (it has none of its own), and the `function` message after it
 *   its result;
 * - fields core has no place for (`name`, `detail`, `audio`...) stay in `metadata.openai.fields`.
 *
 * Throws {@link InvalidMessagesError} for what is not a Chat Completions message.
 */
export function fromOpenAIChatMessages(input: OpenAIChatMessagesInput): Message[] {
  // Plain JSON in practice; fields are read one by one.
  const messages = input as unknown as OpenAIChatMessage[];
  assertShape(messages);
  const toolNames = new Map<string, string>();
  /** The id given to the latest assistant `function_call`, until a `function` message answers it. */
  let legacyCall: string | undefined;
  return messages.map((message, index): Message => {
    let converted: Message;
    switch (message.role) {
      case 'system':
      case 'developer': {
        const { parts, marker } = textContent(message.content, (parts) => encodeAsString(parts));
        converted = {
          role: 'system',
          content: parts.map((part) => (part.type === 'text' ? part : verbatimText(part))),
          ...openaiMetadata(
            {
              [openaiChatMarkers.role]: message.role === 'developer' ? 'developer' : undefined,
              [openaiChatMarkers.content]: marker,
            },
            fieldsExcept(message, ['role', 'content']),
          ),
        };
        break;
      }
      case 'user': {
        const { parts, marker } = textContent(message.content, (parts) => encodeAsString(parts));
        converted = {
          role: 'user',
          content: parts,
          ...openaiMetadata(
            { [openaiChatMarkers.content]: marker },
            fieldsExcept(message, ['role', 'content']),
          ),
        };
        break;
      }
      case 'assistant':
        converted = assistantMessage(message, `function_call_${index}`, toolNames);
        break;
      case 'function':
        converted = functionMessage(message, legacyCall ?? `function_result_${index}`);
        break;
      default:
        converted = toolMessage(message, toolNames);
    }
    // The call waits for its `function` message through the `tool` messages answering the other calls.
    if (message.role === 'assistant') {
      legacyCall = isObject(message.function_call) ? `function_call_${index}` : undefined;
    } else if (message.role !== 'tool') {
      legacyCall = undefined;
    }
    return withKeyOrderOf(message, converted);
  });
}

/** The message marked with the key order `original` had, where it differs from the one written back. */
function withKeyOrderOf(original: OpenAIChatMessage, message: Message): Message {
  const written = writeChatMessage(message, 'system', () => {});
  const order = written.length === 1 ? keyOrderDifference(original, written[0]!.message) : undefined;
  if (order === undefined) return message;
  const openai = openaiMetadataOf(message);
  return {
    ...message,
    metadata: { ...message.metadata, openai: { ...openai, [openaiChatMarkers.keyOrder]: order } },
  };
}

function assistantMessage(
  message: OpenAIChatMessage,
  legacyId: string,
  toolNames: Map<string, string>,
): AssistantMessage {
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
    if (call.type === 'function' && isObject(fn) && isName(fn.name) && typeof fn.arguments === 'string') {
      const { input, arguments: raw } = parseArguments(fn.arguments);
      toolNames.set(call.id, fn.name);
      content.push({
        type: 'tool-call',
        toolCallId: call.id,
        toolName: fn.name,
        input,
        ...openaiMetadata(
          { [openaiChatMarkers.arguments]: raw },
          {
            ...fieldsExcept(call, ['id', 'type', 'function']),
            ...prefixed(fieldsExcept(fn, ['name', 'arguments'])),
          },
        ),
      });
    } else {
      const custom = isObject(call.custom) ? call.custom : {};
      const name = isName(custom.name) ? custom.name : isName(call.type) ? call.type : 'tool';
      toolNames.set(call.id, name);
      content.push({
        type: 'tool-call',
        toolCallId: call.id,
        toolName: name,
        input: custom.input ?? null,
        metadata: { openai: { [openaiChatMarkers.verbatimCall]: call as JSONObject } },
      });
    }
  }
  const legacy = message.function_call;
  if (isObject(legacy) && isName(legacy.name) && typeof legacy.arguments === 'string') {
    const { input, arguments: raw } = parseArguments(legacy.arguments);
    content.push({
      type: 'tool-call',
      toolCallId: legacyId,
      toolName: legacy.name,
      input,
      ...openaiMetadata(
        { [openaiChatMarkers.arguments]: raw, [openaiChatMarkers.legacyFunction]: true },
        prefixed(fieldsExcept(legacy, ['name', 'arguments'])),
      ),
    });
    consumed.push('function_call');
  }
  const toolCalls =
    Array.isArray(message.tool_calls) && message.tool_calls.length === 0 ? 'empty' : undefined;
  return {
    role: 'assistant',
    content,
    ...openaiMetadata(
      { [openaiChatMarkers.content]: marker, [openaiChatMarkers.toolCalls]: toolCalls },
      fieldsExcept(message, consumed),
    ),
  };
}

/** A `function` message of the legacy function calling: the result of the `function_call` before it. */
function functionMessage(message: OpenAIChatMessage, toolCallId: string): Message {
  const content = message.content;
  return resultMessage(
    message,
    { toolCallId, toolName: message.name as string, output: typeof content === 'string' ? content : '' },
    { [openaiChatMarkers.legacyFunction]: true },
    ['role', 'name', 'content'],
  );
}

/** Core needs tool names and ids: a call without them is kept verbatim. */
function isName(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
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
  const toolName = toolNames.get(toolCallId) ?? (typeof message.name === 'string' ? message.name : '');
  return resultMessage(message, { toolCallId, toolName, output }, {}, ['role', 'content', 'tool_call_id']);
}

/**
 * The tool message of one result; a `content` that was absent or null is marked so that it is written back
 * so, and the fields not `consumed` are stored.
 */
function resultMessage(
  message: OpenAIChatMessage,
  result: Pick<ToolResultPart, 'toolCallId' | 'toolName' | 'output'>,
  markers: JSONObject,
  consumed: string[],
): Message {
  const content = message.content;
  const marker = content === undefined ? 'absent' : content === null ? 'null' : undefined;
  return {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        ...result,
        ...openaiMetadata(
          { [openaiChatMarkers.content]: marker, ...markers },
          fieldsExcept(message, consumed),
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

function verbatimText(part: OpenAIChatPart): TextPart {
  return verbatimChatPart(coreToChatPart(part));
}

/** Extra fields of `function` are stored with a `function.` prefix, apart from the call's own. */
function prefixed(fields: JSONObject): JSONObject {
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [`function.${key}`, value]));
}

function assertShape(messages: OpenAIChatMessage[]): void {
  assertEntries(messages, 'expected an array of messages', (message, index, issues) => {
    if (!isObject(message)) {
      issues.push({ index, path: '', message: 'expected a message object' });
      return;
    }
    const role = message.role;
    if (!['system', 'developer', 'user', 'assistant', 'tool', 'function'].includes(role)) {
      issues.push({ index, path: 'role', message: `unsupported role ${JSON.stringify(role)}` });
      return;
    }
    if (!isJSONValue(message)) {
      issues.push(notPlainJsonIssue(index));
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
    if (role === 'tool' && !isName(message.tool_call_id)) {
      issues.push({ index, path: 'tool_call_id', message: 'a tool message needs a tool_call_id' });
    }
    if (role === 'function' && !isName(message.name)) {
      issues.push({ index, path: 'name', message: 'a function message needs the name of its function' });
    }
    if (role === 'function' && content !== undefined && content !== null && typeof content !== 'string') {
      issues.push({ index, path: 'content', message: 'a function message has string content' });
    }
    if (message.tool_calls !== undefined) {
      if (!Array.isArray(message.tool_calls))
        issues.push({ index, path: 'tool_calls', message: 'must be an array' });
      else
        message.tool_calls.forEach((call, callIndex) => {
          if (!isObject(call) || !isName(call.id) || typeof call.type !== 'string') {
            issues.push({ index, path: `tool_calls[${callIndex}]`, message: 'must have an id and a type' });
          }
        });
    }
  });
}
