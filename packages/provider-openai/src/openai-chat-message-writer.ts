import type { AssistantMessage, JSONObject, Message, TextPart, ToolResultPart } from '@compaction/core';
import { isKeyOrder, setField, withKeyOrder } from '@compaction/provider-utils';
import { coreToChatPart, type OpenAIChatPart, refusalKey } from './openai-chat-content-parts.js';
import { openaiChatMarkers } from './openai-chat-markers.js';
import type { OpenAIChatContentPart, OpenAIChatMessage, OpenAIChatToolCall } from './openai-chat-request.js';
import { isObject, openaiMetadataOf, serializeArguments, storedFields } from './openai-metadata.js';

/** A written message, with the tool calls it makes and the call it answers (legacy function calls have no id). */
export interface WrittenChatMessage {
  message: OpenAIChatMessage;
  calls: string[];
  answers?: string;
}

/** Reports a problem with a part of the message: the path inside it, and what is wrong. */
export type ReportIssue = (path: string, text: string) => void;

/**
 * Writes one core message as Chat Completions messages: one message, or one per result for a tool message,
 * or none for an assistant message left empty by dropped reasoning. A message that came from Chat
 * Completions is written as it was, key order included.
 */
export function writeChatMessage(
  message: Message,
  systemRole: 'system' | 'developer',
  report: ReportIssue,
): WrittenChatMessage[] {
  const fields = storedFields(message);
  const marks = openaiMetadataOf(message);
  const keyOrder = marks[openaiChatMarkers.keyOrder];
  const order = isKeyOrder(keyOrder) ? keyOrder : undefined;
  switch (message.role) {
    case 'system': {
      const role = marks[openaiChatMarkers.role] === 'developer' ? 'developer' : systemRole;
      const written = {
        role,
        ...contentField(message.content, marks[openaiChatMarkers.content], 'array'),
        ...fields,
      };
      return [{ message: withKeyOrder(written, order), calls: [] }];
    }
    case 'user': {
      const written = {
        role: 'user',
        ...contentField(message.content, marks[openaiChatMarkers.content], 'array'),
        ...fields,
      };
      return [{ message: withKeyOrder(written, order), calls: [] }];
    }
    case 'assistant': {
      const written = assistantMessage(message, report);
      return written === undefined ? [] : [{ ...written, message: withKeyOrder(written.message, order) }];
    }
    case 'tool':
      return message.content.map((part, partIndex) => {
        const written = resultMessage(part, (path, text) => report(`content[${partIndex}]${path}`, text));
        // The order belongs to the one message the tool message came from.
        return message.content.length === 1
          ? { ...written, message: withKeyOrder(written.message, order) }
          : written;
      });
  }
}

function assistantMessage(
  message: AssistantMessage,
  report: ReportIssue,
): { message: OpenAIChatMessage; calls: string[] } | undefined {
  const marks = openaiMetadataOf(message);
  const texts: OpenAIChatPart[] = [];
  const toolCalls: OpenAIChatToolCall[] = [];
  const calls: string[] = [];
  let functionCall: JSONObject | undefined;
  let refusal: string | undefined;
  for (const [partIndex, part] of message.content.entries()) {
    switch (part.type) {
      case 'text':
        if (openaiMetadataOf(part)[refusalKey] === 'field') refusal = part.text;
        else texts.push(part);
        break;
      case 'file':
        texts.push(part);
        report(`content[${partIndex}]`, 'Chat Completions assistant messages cannot carry files');
        break;
      case 'tool-call': {
        const partMarks = openaiMetadataOf(part);
        calls.push(part.toolCallId);
        const verbatim = partMarks[openaiChatMarkers.verbatimCall];
        if (isObject(verbatim)) {
          toolCalls.push(verbatim as OpenAIChatToolCall);
          break;
        }
        const { call, fn } = splitCallFields(storedFields(part));
        const written = {
          name: part.toolName,
          arguments: serializeArguments(part.input, partMarks[openaiChatMarkers.arguments]),
          ...fn,
        };
        if (partMarks[openaiChatMarkers.legacyFunction] === true && functionCall === undefined) {
          functionCall = written;
          break;
        }
        toolCalls.push({ id: part.toolCallId, type: 'function', function: written, ...call });
        break;
      }
      case 'reasoning':
        break;
    }
  }
  if (
    message.content.length > 0 &&
    texts.length === 0 &&
    toolCalls.length === 0 &&
    functionCall === undefined &&
    refusal === undefined
  ) {
    return undefined;
  }
  const written: OpenAIChatMessage = {
    role: 'assistant',
    ...contentField(texts, marks[openaiChatMarkers.content], 'null'),
    ...(refusal === undefined ? {} : { refusal }),
    ...(toolCalls.length > 0 || marks[openaiChatMarkers.toolCalls] === 'empty'
      ? { tool_calls: toolCalls }
      : {}),
    ...(functionCall === undefined ? {} : { function_call: functionCall }),
    ...storedFields(message),
  };
  return { message: written, calls };
}

function resultMessage(part: ToolResultPart, report: ReportIssue): WrittenChatMessage {
  const marks = openaiMetadataOf(part);
  const marker = marks[openaiChatMarkers.content];
  let content: OpenAIChatMessage['content'];
  if (typeof part.output === 'string') {
    content =
      marker === 'absent' && part.output === ''
        ? undefined
        : marker === 'null' && part.output === ''
          ? null
          : part.output;
  } else {
    content = part.output.map((item) => coreToChatPart(item));
    if (content.some((item) => item.type !== 'text')) {
      report('.output', 'Chat Completions tool messages carry text only; images and files cannot be sent');
    }
  }
  if (marks[openaiChatMarkers.legacyFunction] === true) {
    // A function message's content is a string: text parts (a strategy's output) are joined.
    const text = Array.isArray(content) ? content.map((item) => item.text ?? '').join('\n') : content;
    return {
      message: {
        role: 'function',
        name: part.toolName,
        ...(text === undefined ? {} : { content: text }),
        ...storedFields(part),
      },
      calls: [],
      answers: part.toolCallId,
    };
  }
  return {
    message: {
      role: 'tool',
      ...(content === undefined ? {} : { content }),
      tool_call_id: part.toolCallId,
      ...storedFields(part),
    },
    calls: [],
    answers: part.toolCallId,
  };
}

/** Whether the default encoding writes these parts as a plain string: one text part without metadata. */
export function encodeAsString(parts: readonly OpenAIChatPart[]): boolean {
  return parts.length === 1 && parts[0]!.type === 'text' && parts[0]!.metadata === undefined;
}

/**
 * The `content` field for text-like parts: a string for one plain text part (unless marked `parts`), an
 * array otherwise; with no parts, `[]` for user and system messages and `null` for the assistant.
 */
function contentField(
  parts: readonly (TextPart | OpenAIChatPart)[],
  marker: unknown,
  empty: 'array' | 'null',
): { content?: string | null | OpenAIChatContentPart[] } {
  if (marker === 'absent' && parts.length === 0) return {};
  if (marker !== 'parts' && encodeAsString(parts)) return { content: (parts[0] as TextPart).text };
  if (parts.length === 0 && empty === 'null' && marker !== 'parts') return { content: null };
  return { content: parts.map((part) => coreToChatPart(part)) };
}

function splitCallFields(fields: JSONObject): { call: JSONObject; fn: JSONObject } {
  const call: JSONObject = {};
  const fn: JSONObject = {};
  for (const [key, value] of Object.entries(fields)) {
    if (key.startsWith('function.')) setField(fn, key.slice('function.'.length), value);
    else setField(call, key, value);
  }
  return { call, fn };
}
