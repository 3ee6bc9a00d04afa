import type {
  JSONObject,
  ReasoningPart,
  SystemMessage,
  TextPart,
  ToolCallPart,
  ToolResultPart,
  UserMessage,
} from '@compaction/core';
import { isKeyOrder, withKeyOrder } from '@compaction/provider-utils';
import { isObject, openaiMetadataOf, serializeArguments, storedFields } from './openai-metadata.js';
import { coreToResponsesPart, type OpenAIResponsesPart } from './openai-responses-content-parts.js';
import { openaiResponsesMarkers } from './openai-responses-markers.js';
import type { OpenAIResponsesItem } from './openai-responses-request.js';

/** What the first text part of an assistant message item says about the item (see {@link openaiResponsesMarkers.item}). */
export interface AssistantItemMarker {
  fields: JSONObject;
  /** The content was an array a string could have replaced. */
  parts: boolean;
  keyOrder?: JSONObject;
}

/** A user, system or developer message item. */
export function messageItem(
  message: UserMessage | SystemMessage,
  systemRole: 'system' | 'developer',
): OpenAIResponsesItem {
  const marks = openaiMetadataOf(message);
  const role =
    message.role === 'user'
      ? 'user'
      : marks[openaiResponsesMarkers.itemRole] === 'developer'
        ? 'developer'
        : systemRole;
  const parts = message.content as OpenAIResponsesPart[];
  const plain = parts.length === 1 && parts[0]!.type === 'text' && parts[0]!.metadata === undefined;
  const item: OpenAIResponsesItem = {
    role,
    content:
      plain && marks[openaiResponsesMarkers.itemContent] !== 'parts'
        ? (parts[0] as TextPart).text
        : parts.map((part) => coreToResponsesPart(part, role)),
    ...storedFields(message),
  };
  return ordered(item, marks[openaiResponsesMarkers.keyOrder]);
}

/** The assistant message item holding a run of text parts (their item marker removed). */
export function assistantMessageItem(parts: TextPart[], marker: AssistantItemMarker): OpenAIResponsesItem {
  const plain = parts.length === 1 && parts[0]!.metadata === undefined && !marker.parts;
  const item: OpenAIResponsesItem = {
    role: 'assistant',
    content: plain ? parts[0]!.text : parts.map((part) => coreToResponsesPart(part, 'assistant')),
    ...marker.fields,
  };
  return ordered(item, marker.keyOrder);
}

/** The item marker a text part carries, if it starts an item. */
export function assistantItemMarkerOf(part: TextPart): AssistantItemMarker | undefined {
  const marker = openaiMetadataOf(part)[openaiResponsesMarkers.item];
  if (!isObject(marker)) return undefined;
  return {
    fields: isObject(marker.fields) ? marker.fields : {},
    parts: marker.content === 'parts',
    ...(isObject(marker.keyOrder) ? { keyOrder: marker.keyOrder } : {}),
  };
}

/** The part without the item marker, which belongs to the item, not the part. */
export function withoutItemMarker(part: TextPart): TextPart {
  const openai = part.metadata?.openai;
  if (!isObject(openai) || openai[openaiResponsesMarkers.item] === undefined) return part;
  const { [openaiResponsesMarkers.item]: _item, ...rest } = openai;
  const metadata = { ...part.metadata };
  if (Object.keys(rest).length === 0) delete metadata.openai;
  else metadata.openai = rest;
  return Object.keys(metadata).length === 0 ? { type: 'text', text: part.text } : { ...part, metadata };
}

/** A `function_call` item. */
export function functionCallItem(part: ToolCallPart): OpenAIResponsesItem {
  const marks = openaiMetadataOf(part);
  const item: OpenAIResponsesItem = {
    type: 'function_call',
    call_id: part.toolCallId,
    name: part.toolName,
    arguments: serializeArguments(part.input, marks[openaiResponsesMarkers.itemArguments]),
    ...storedFields(part),
  };
  return ordered(item, marks[openaiResponsesMarkers.keyOrder]);
}

/** A `function_call_output` item. */
export function functionOutputItem(part: ToolResultPart): OpenAIResponsesItem {
  const item: OpenAIResponsesItem = {
    type: 'function_call_output',
    call_id: part.toolCallId,
    output:
      typeof part.output === 'string'
        ? part.output
        : part.output.map((content) => coreToResponsesPart(content, 'user')),
    ...storedFields(part),
  };
  return ordered(item, openaiMetadataOf(part)[openaiResponsesMarkers.keyOrder]);
}

/** A `reasoning` item: its summary rebuilt from the text unless the item had another one. */
export function reasoningItem(part: ReasoningPart): OpenAIResponsesItem {
  const { summary, ...rest } = storedFields(part);
  const item: OpenAIResponsesItem = {
    type: 'reasoning',
    ...(summary === 'absent' ? {} : { summary: summary === undefined ? defaultSummary(part.text) : summary }),
    ...(part.redactedData === undefined ? {} : { encrypted_content: part.redactedData }),
    ...rest,
  };
  return ordered(item, openaiMetadataOf(part)[openaiResponsesMarkers.keyOrder]);
}

/** The summary written for a reasoning text. */
export function defaultSummary(text: string): JSONObject[] {
  return text === '' ? [] : [{ type: 'summary_text', text }];
}

function ordered(item: OpenAIResponsesItem, order: unknown): OpenAIResponsesItem {
  return isKeyOrder(order) ? withKeyOrder(item, order) : item;
}
