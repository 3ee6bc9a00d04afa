import {
  type AssistantMessage,
  InvalidMessagesError,
  type JSONObject,
  type Message,
  type MessageIssue,
  type TextPart,
} from '@compaction/core';
import {
  defaultSummary,
  itemArgumentsMarker,
  itemContentMarker,
  itemMarker,
  itemRoleMarker,
  stringInputMarker,
} from './from-openai-responses-input.js';
import { isObject, openaiMetadataOf, serializeArguments, storedFields } from './openai-metadata.js';
import {
  coreToResponsesPart,
  type OpenAIResponsesPart,
  verbatimOf,
} from './openai-responses-content-parts.js';
import type { OpenAIResponsesInputParam, OpenAIResponsesItem } from './openai-responses-request.js';

/** Options of {@link toOpenAIResponsesInput}. */
export interface ToOpenAIResponsesInputOptions {
  /** Role for system messages that do not say. Default `system`. */
  systemRole?: 'system' | 'developer';
}

/**
 * Converts core messages to a Responses API `input`, the inverse of {@link fromOpenAIResponsesInput}. The
 * result is valid for the API:
 *
 * - consecutive assistant messages are written as one run of items (text runs become one message item);
 * - reasoning that did not come from OpenAI (no item `id`) is dropped, since the API cannot take it back;
 * - every `function_call_output` must answer a `function_call` of the assistant run before it, and every
 *   call must be answered before the next user or system message (calls at the very end may still be
 *   waiting); otherwise {@link InvalidMessagesError} is thrown (run core's `repairHistory` first).
 */
export function toOpenAIResponsesInput(
  messages: Message[],
  options: ToOpenAIResponsesInputOptions = {},
): OpenAIResponsesInputParam {
  const only = messages.length === 1 ? messages[0]! : undefined;
  if (
    only?.role === 'user' &&
    openaiMetadataOf(only)[stringInputMarker] === 'string' &&
    only.content.length === 1 &&
    only.content[0]!.type === 'text' &&
    only.content[0]!.metadata === undefined
  ) {
    return only.content[0]!.text;
  }
  const items: OpenAIResponsesItem[] = [];
  const issues: MessageIssue[] = [];
  let open = new Set<string>();
  let answered = new Set<string>();
  let openSource = -1;
  const closeCalls = () => {
    const missing = [...open].filter((id) => !answered.has(id));
    if (missing.length > 0) {
      issues.push({
        index: openSource,
        path: 'content',
        message: `tool call(s) ${missing.join(', ')} have no output before the next message`,
      });
    }
    open = new Set();
    answered = new Set();
  };
  let textRun: { parts: TextPart[]; fields: JSONObject; partsMarker: boolean } | undefined;
  const flushText = () => {
    if (textRun === undefined) return;
    const plain =
      textRun.parts.length === 1 && textRun.parts[0]!.metadata === undefined && !textRun.partsMarker;
    items.push({
      role: 'assistant',
      content: plain
        ? textRun.parts[0]!.text
        : textRun.parts.map((part) => coreToResponsesPart(part, 'assistant')),
      ...textRun.fields,
    });
    textRun = undefined;
  };

  messages.forEach((message, index) => {
    if (message.role !== 'assistant') flushText();
    switch (message.role) {
      case 'system':
      case 'user': {
        closeCalls();
        const marks = openaiMetadataOf(message);
        const role =
          message.role === 'user'
            ? 'user'
            : marks[itemRoleMarker] === 'developer'
              ? 'developer'
              : (options.systemRole ?? 'system');
        const verbatim = message.content.length === 1 ? verbatimOf(message.content[0]!) : undefined;
        if (verbatim?.type?.endsWith('_output')) {
          items.push(verbatim);
          return;
        }
        const parts = message.content as OpenAIResponsesPart[];
        const plain = parts.length === 1 && parts[0]!.type === 'text' && parts[0]!.metadata === undefined;
        items.push({
          role,
          content:
            plain && marks[itemContentMarker] !== 'parts'
              ? (parts[0] as TextPart).text
              : parts.map((part) => coreToResponsesPart(part, role)),
          ...storedFields(message),
        });
        return;
      }
      case 'assistant':
        closeCalls();
        openSource = index;
        writeAssistant(message);
        return;
      case 'tool':
        for (const part of message.content) {
          const verbatim = verbatimOf(part);
          if (verbatim !== undefined) {
            items.push(verbatim);
          } else {
            items.push({
              type: 'function_call_output',
              call_id: part.toolCallId,
              output:
                typeof part.output === 'string'
                  ? part.output
                  : part.output.map((item) => coreToResponsesPart(item, 'user')),
              ...storedFields(part),
            });
          }
          if (!open.has(part.toolCallId) || answered.has(part.toolCallId)) {
            issues.push({
              index,
              path: 'content',
              message: `output ${part.toolCallId} does not answer a function_call of the assistant turn before it`,
            });
          }
          answered.add(part.toolCallId);
        }
        return;
    }
  });
  flushText();

  function writeAssistant(message: AssistantMessage): void {
    for (const part of message.content) {
      if (part.type === 'text' && verbatimOf(part) === undefined) {
        const marker = openaiMetadataOf(part)[itemMarker];
        if (textRun === undefined || isObject(marker)) {
          flushText();
          const item = isObject(marker) ? marker : {};
          textRun = {
            parts: [],
            fields: isObject(item.fields) ? item.fields : {},
            partsMarker: item.content === 'parts',
          };
        }
        textRun.parts.push(stripItemMarker(part));
        continue;
      }
      // Reasoning that cannot be sent is skipped without ending the text run around it.
      if (part.type === 'reasoning' && storedFields(part).id === undefined) continue;
      flushText();
      switch (part.type) {
        case 'text':
          items.push(verbatimOf(part)!);
          break;
        case 'tool-call': {
          const marks = openaiMetadataOf(part);
          items.push({
            type: 'function_call',
            call_id: part.toolCallId,
            name: part.toolName,
            arguments: serializeArguments(part.input, marks[itemArgumentsMarker]),
            ...storedFields(part),
          });
          open.add(part.toolCallId);
          break;
        }
        case 'reasoning': {
          const { summary, ...rest } = storedFields(part);
          items.push({
            type: 'reasoning',
            ...(summary === 'absent'
              ? {}
              : { summary: summary === undefined ? defaultSummary(part.text) : summary }),
            ...(part.redactedData === undefined ? {} : { encrypted_content: part.redactedData }),
            ...rest,
          });
          break;
        }
        case 'file':
          items.push({ role: 'assistant', content: [coreToResponsesPart(part, 'assistant')] });
          break;
      }
    }
  }

  if (issues.length > 0) throw new InvalidMessagesError({ issues });
  return items as unknown as OpenAIResponsesInputParam;
}

/** The part without the item marker, which belongs to the item, not the part. */
function stripItemMarker(part: TextPart): TextPart {
  const openai = part.metadata?.openai;
  if (!isObject(openai) || openai[itemMarker] === undefined) return part;
  const { [itemMarker]: _item, ...rest } = openai;
  const metadata = { ...part.metadata };
  if (Object.keys(rest).length === 0) delete metadata.openai;
  else metadata.openai = rest;
  return Object.keys(metadata).length === 0 ? { type: 'text', text: part.text } : { ...part, metadata };
}
