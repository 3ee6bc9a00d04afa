import {
  type AssistantMessage,
  InvalidMessagesError,
  type Message,
  type MessageIssue,
  type TextPart,
  type ToolMessage,
  type ToolResultPart,
} from '@compaction/core';
import { openaiMetadataOf, storedFields } from './openai-metadata.js';
import { coreToResponsesPart, verbatimOf } from './openai-responses-content-parts.js';
import {
  type AssistantItemMarker,
  assistantItemMarkerOf,
  assistantMessageItem,
  functionCallItem,
  functionOutputItem,
  messageItem,
  reasoningItem,
  withoutItemMarker,
} from './openai-responses-item-writer.js';
import { openaiResponsesMarkers } from './openai-responses-markers.js';
import type { OpenAIResponsesInputParam, OpenAIResponsesItem } from './openai-responses-request.js';
import {
  callItemOf,
  freshOutputItem,
  needsOwnOutput,
  outputItemOf,
  sourceItemOf,
} from './openai-responses-tool-items.js';

/** Options of {@link toOpenAIResponsesInput}. */
export interface ToOpenAIResponsesInputOptions {
  /** Role for system messages that do not say. Default `system`. */
  systemRole?: 'system' | 'developer';
}

/**
 * Converts core messages to a Responses API `input`, the inverse of {@link fromOpenAIResponsesInput}: items
 * that came from an input and were not changed are written back as they were, byte for byte once
 * serialized. The result is valid for the API:
 *
 * - consecutive assistant messages are written as one run of items (text runs become one message item);
 * - a tool call or result made from a tool item goes back as that item; a result a strategy shortened is
 *   written in the item's own shape (the text output of a custom tool, local shell, shell or apply_patch
 *   call), except where the shape has no place for text (a computer call's screenshot, tool search results,
 *   an MCP approval), which is sent as it came; a result added by a repair answers its call in the shape the
 *   call needs (a computer call cannot be answered so: that is an error);
 * - reasoning that did not come from OpenAI (no item `id`) is dropped, since the API cannot take it back;
 * - every answer must follow the assistant run with its call, and every call must be answered before the
 *   next user or system message (calls at the very end may still be waiting); otherwise
 *   {@link InvalidMessagesError} is thrown (run core's `repairHistory` first).
 *
 * Compaction's own marks (pins, `joinsPrevious`...) are never written.
 */
export function toOpenAIResponsesInput(
  messages: Message[],
  options: ToOpenAIResponsesInputOptions = {},
): OpenAIResponsesInputParam {
  const stringInput = stringInputOf(messages);
  if (stringInput !== undefined) return stringInput;
  const writer: InputWriter = {
    items: [],
    issues: [],
    open: new Map(),
    answered: new Set(),
    openSource: -1,
    textRun: undefined,
  };
  messages.forEach((message, index) => {
    if (message.role !== 'assistant') flushText(writer);
    switch (message.role) {
      case 'system':
      case 'user': {
        closeCalls(writer);
        // An answer kept whole in a user message (its call was not in the input) goes back as it came.
        const verbatim = message.content.length === 1 ? verbatimOf(message.content[0]!) : undefined;
        if (verbatim !== undefined && isAnswerItem(verbatim)) writer.items.push(verbatim);
        else writer.items.push(messageItem(message, options.systemRole ?? 'system'));
        return;
      }
      case 'assistant':
        closeCalls(writer);
        writer.openSource = index;
        writeAssistant(writer, message);
        return;
      case 'tool':
        writeToolMessage(writer, message, index);
        return;
    }
  });
  flushText(writer);
  if (writer.issues.length > 0) throw new InvalidMessagesError({ issues: writer.issues });
  return writer.items as unknown as OpenAIResponsesInputParam;
}

/** The input a request gave as one string (read into one user text), written back as that string. */
function stringInputOf(messages: Message[]): string | undefined {
  const only = messages.length === 1 ? messages[0]! : undefined;
  if (
    only?.role === 'user' &&
    openaiMetadataOf(only)[openaiResponsesMarkers.stringInput] === 'string' &&
    only.content.length === 1 &&
    only.content[0]!.type === 'text' &&
    only.content[0]!.metadata === undefined
  ) {
    return only.content[0]!.text;
  }
  return undefined;
}

/** The items written so far, the problems found, and what the next message continues. */
interface InputWriter {
  items: OpenAIResponsesItem[];
  issues: MessageIssue[];
  /** Calls waiting for an answer, with the item each was made from (none for a function call). */
  open: Map<string, OpenAIResponsesItem | undefined>;
  answered: Set<string>;
  /** The index of the assistant message whose calls are open. */
  openSource: number;
  /** Assistant text parts still to be written as one message item. */
  textRun: { parts: TextPart[]; marker: AssistantItemMarker } | undefined;
}

/** A user or system message, or the next assistant turn, ends the open calls: each must have had its answer. */
function closeCalls(writer: InputWriter): void {
  const missing = [...writer.open.keys()].filter((id) => !writer.answered.has(id));
  if (missing.length > 0) {
    writer.issues.push({
      index: writer.openSource,
      path: 'content',
      message: `tool call(s) ${missing.join(', ')} have no output before the next message`,
    });
  }
  writer.open = new Map();
  writer.answered = new Set();
}

function flushText(writer: InputWriter): void {
  if (writer.textRun !== undefined) {
    writer.items.push(assistantMessageItem(writer.textRun.parts, writer.textRun.marker));
  }
  writer.textRun = undefined;
}

/** An assistant message's parts: text runs as message items, calls, reasoning and files as their own items. */
function writeAssistant(writer: InputWriter, message: AssistantMessage): void {
  for (const part of message.content) {
    if (part.type === 'text' && verbatimOf(part) === undefined) {
      const marker = assistantItemMarkerOf(part);
      if (writer.textRun === undefined || marker !== undefined) {
        flushText(writer);
        writer.textRun = { parts: [], marker: marker ?? { fields: {}, parts: false } };
      }
      writer.textRun.parts.push(withoutItemMarker(part));
      continue;
    }
    // Reasoning that cannot be sent is skipped without ending the text run around it.
    if (part.type === 'reasoning' && storedFields(part).id === undefined) continue;
    flushText(writer);
    switch (part.type) {
      case 'text':
        writer.items.push(verbatimOf(part)!);
        break;
      case 'tool-call': {
        const source = sourceItemOf(part);
        writer.items.push(source === undefined ? functionCallItem(part) : callItemOf(part, source));
        writer.open.set(part.toolCallId, source);
        break;
      }
      case 'reasoning':
        writer.items.push(reasoningItem(part));
        break;
      case 'file':
        writer.items.push({ role: 'assistant', content: [coreToResponsesPart(part, 'assistant')] });
        break;
    }
  }
}

/** A tool message's results, each answering an open call of the assistant turn before it. */
function writeToolMessage(writer: InputWriter, message: ToolMessage, index: number): void {
  message.content.forEach((part, partIndex) => {
    const item = answerItem(writer, part, (text) =>
      writer.issues.push({ index, path: `content[${partIndex}]`, message: text }),
    );
    if (item !== undefined) writer.items.push(item);
    if (!writer.open.has(part.toolCallId) || writer.answered.has(part.toolCallId)) {
      writer.issues.push({
        index,
        path: 'content',
        message: `output ${part.toolCallId} does not answer a call of the assistant turn before it`,
      });
    }
    writer.answered.add(part.toolCallId);
  });
}

/** The item answering a call: the one the result came from, or one in the shape its call needs. */
function answerItem(
  writer: InputWriter,
  part: ToolResultPart,
  report: (text: string) => void,
): OpenAIResponsesItem | undefined {
  const source = sourceItemOf(part);
  if (source !== undefined) return outputItemOf(part, source);
  const verbatim = verbatimOf(part);
  if (verbatim !== undefined) return verbatim;
  const call = writer.open.get(part.toolCallId);
  if (call === undefined) return functionOutputItem(part);
  if (needsOwnOutput(call)) {
    report(`a ${call.type} is answered by its own output item (a screenshot), not by text`);
    return undefined;
  }
  return freshOutputItem(call, part) ?? functionOutputItem(part);
}

/** Whether an item answers a call (content parts, which user messages also keep verbatim, never do). */
function isAnswerItem(item: OpenAIResponsesItem): boolean {
  return item.type?.endsWith('_output') === true || item.type === 'mcp_approval_response';
}
