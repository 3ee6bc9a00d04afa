import {
  type AssistantMessage,
  InvalidMessagesError,
  type JSONObject,
  type Message,
  type MessageIssue,
  type TextPart,
  type ToolResultPart,
} from '@compaction/core';
import {
  argumentsMarker,
  contentMarker,
  encodeAsString,
  roleMarker,
  toolCallsMarker,
  verbatimCallKey,
} from './from-openai-chat-messages.js';
import { coreToChatPart, type OpenAIChatPart, refusalKey } from './openai-chat-content-parts.js';
import type {
  OpenAIChatContentPart,
  OpenAIChatMessage,
  OpenAIChatMessageParam,
  OpenAIChatToolCall,
} from './openai-chat-request.js';
import { isObject, openaiMetadataOf, serializeArguments, storedFields } from './openai-metadata.js';

/** Options of {@link toOpenAIChatMessages}. */
export interface ToOpenAIChatMessagesOptions {
  /** Role for system messages that do not say (reasoning models prefer `developer`). Default `system`. */
  systemRole?: 'system' | 'developer';
}

/**
 * Converts core messages to Chat Completions messages, the inverse of {@link fromOpenAIChatMessages}. The
 * result is valid for the API:
 *
 * - a tool message becomes one `tool` message per result; image or file outputs, which tool messages
 *   cannot carry, are rejected;
 * - reasoning parts are dropped (Chat Completions takes no reasoning back), and an assistant message left
 *   empty by that is dropped;
 * - every `tool` message must answer a call of the assistant message before it, and every call must be
 *   answered before the next non-tool message (calls at the very end may still be waiting); otherwise
 *   {@link InvalidMessagesError} is thrown (run core's `repairHistory` first).
 */
export function toOpenAIChatMessages(
  messages: Message[],
  options: ToOpenAIChatMessagesOptions = {},
): OpenAIChatMessageParam[] {
  const issues: MessageIssue[] = [];
  const output: OpenAIChatMessage[] = [];
  /** The core index of each output message, for error reports. */
  const sources: number[] = [];
  messages.forEach((message, index) => {
    while (sources.length < output.length) sources.push(index - 1);
    const report = (path: string, text: string) => issues.push({ index, path, message: text });
    const fields = storedFields(message);
    const marks = openaiMetadataOf(message);
    switch (message.role) {
      case 'system': {
        const role = marks[roleMarker] === 'developer' ? 'developer' : (options.systemRole ?? 'system');
        output.push({ role, ...contentField(message.content, marks[contentMarker], 'array'), ...fields });
        return;
      }
      case 'user':
        output.push({
          role: 'user',
          ...contentField(message.content, marks[contentMarker], 'array'),
          ...fields,
        });
        return;
      case 'assistant': {
        const converted = assistantMessage(message, report);
        if (converted !== undefined) output.push(converted);
        return;
      }
      case 'tool':
        message.content.forEach((part, partIndex) => {
          output.push(toolMessage(part, (path, text) => report(`content[${partIndex}]${path}`, text)));
        });
        return;
    }
  });
  while (sources.length < output.length) sources.push(messages.length - 1);
  if (issues.length === 0) checkToolPairing(output, sources, issues);
  if (issues.length > 0) throw new InvalidMessagesError({ issues });
  return output as unknown as OpenAIChatMessageParam[];
}

function assistantMessage(
  message: AssistantMessage,
  report: (path: string, text: string) => void,
): OpenAIChatMessage | undefined {
  const marks = openaiMetadataOf(message);
  const texts: OpenAIChatPart[] = [];
  const toolCalls: OpenAIChatToolCall[] = [];
  let refusal: string | undefined;
  for (const [partIndex, part] of message.content.entries()) {
    switch (part.type) {
      case 'text':
        if (openaiMetadataOf(part)[refusalKey] === 'field') refusal = part.text;
        else texts.push(part);
        break;
      case 'file':
        texts.push(part);
        break;
      case 'tool-call': {
        const partMarks = openaiMetadataOf(part);
        const verbatim = partMarks[verbatimCallKey];
        if (isObject(verbatim)) {
          toolCalls.push(verbatim as OpenAIChatToolCall);
          break;
        }
        const { call, fn } = splitCallFields(storedFields(part));
        toolCalls.push({
          id: part.toolCallId,
          type: 'function',
          function: {
            name: part.toolName,
            arguments: serializeArguments(part.input, partMarks[argumentsMarker]),
            ...fn,
          },
          ...call,
        });
        break;
      }
      case 'reasoning':
        break;
    }
    if (part.type === 'file')
      report(`content[${partIndex}]`, 'Chat Completions assistant messages cannot carry files');
  }
  if (message.content.length > 0 && texts.length === 0 && toolCalls.length === 0 && refusal === undefined) {
    return undefined;
  }
  const content = contentField(texts, marks[contentMarker], 'null');
  return {
    role: 'assistant',
    ...content,
    ...(refusal === undefined ? {} : { refusal }),
    ...(toolCalls.length > 0 || marks[toolCallsMarker] === 'empty' ? { tool_calls: toolCalls } : {}),
    ...storedFields(message),
  };
}

function toolMessage(part: ToolResultPart, report: (path: string, text: string) => void): OpenAIChatMessage {
  const marker = openaiMetadataOf(part)[contentMarker];
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
  return {
    role: 'tool',
    ...(content === undefined ? {} : { content }),
    tool_call_id: part.toolCallId,
    ...storedFields(part),
  };
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
    if (key.startsWith('function.')) fn[key.slice('function.'.length)] = value;
    else call[key] = value;
  }
  return { call, fn };
}

function checkToolPairing(output: OpenAIChatMessage[], sources: number[], issues: MessageIssue[]): void {
  let open = new Set<string>();
  let answered = new Set<string>();
  let lastAssistant = -1;
  output.forEach((message, outputIndex) => {
    const index = sources[outputIndex]!;
    if (message.role === 'tool') {
      const id = message.tool_call_id as string;
      if (!open.has(id) || answered.has(id)) {
        issues.push({
          index,
          path: 'content',
          message: `tool result ${id} does not answer a call of the assistant message before it`,
        });
      }
      answered.add(id);
      return;
    }
    const missing = [...open].filter((id) => !answered.has(id));
    if (missing.length > 0) {
      issues.push({
        index: lastAssistant,
        path: 'content',
        message: `tool call(s) ${missing.join(', ')} have no result before the next message`,
      });
    }
    open = new Set((message.tool_calls ?? []).map((call) => call.id));
    answered = new Set();
    if (message.role === 'assistant') lastAssistant = index;
  });
}
