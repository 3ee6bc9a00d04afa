import {
  type AssistantMessage,
  InvalidMessagesError,
  type JSONObject,
  type Message,
  type MessageIssue,
  type ReasoningPart,
  type ToolMessage,
  type ToolResultContentPart,
  type ToolResultPart,
} from '@compaction/core';
import { fieldsExcept, isObject, openaiMetadata, parseArguments } from './openai-metadata.js';
import {
  type OpenAIResponsesPart,
  responsesPartToCore,
  verbatimKey,
  verbatimTextPart,
} from './openai-responses-content-parts.js';
import type {
  OpenAIResponsesInput,
  OpenAIResponsesInputLike,
  OpenAIResponsesItem,
} from './openai-responses-request.js';

/** Marker `input: 'string'` on the user message made from a string `input`. */
export const stringInputMarker = 'input';
/** Message marker `content`: `parts` for an array content a string could have replaced. */
export const itemContentMarker = 'content';
/** Message marker `role`: `developer` for developer messages. */
export const itemRoleMarker = 'role';
/** Marker on the first text part of each assistant message item: the item's own fields and content shape. */
export const itemMarker = 'item';
/** Tool-call marker: the raw arguments string. */
export const itemArgumentsMarker = 'arguments';

const messageRoles = ['user', 'system', 'developer', 'assistant'];

/**
 * Converts a Responses API `input` to core messages, losslessly: {@link toOpenAIResponsesInput} gives back
 * an equal input.
 *
 * - user, system and developer message items become messages of their role;
 * - consecutive assistant-side items (assistant messages, `function_call`, `reasoning`) become one assistant
 *   message, part by part in order; consecutive `function_call_output` items become one tool message;
 * - reasoning keeps its summary as text, `encrypted_content` as `redactedData`, and its `id` in metadata;
 * - item types core has no part for are kept verbatim (`*_output` items in a user message, others in the
 *   assistant message).
 *
 * Throws {@link InvalidMessagesError} for input that is not a string or a list of items.
 */
export function fromOpenAIResponsesInput(value: OpenAIResponsesInputLike): Message[] {
  const input = value as unknown as OpenAIResponsesInput;
  if (typeof input === 'string') {
    return [
      {
        role: 'user',
        content: [{ type: 'text', text: input }],
        metadata: { openai: { [stringInputMarker]: 'string' } },
      },
    ];
  }
  assertShape(input);
  const messages: Message[] = [];
  const toolNames = new Map<string, string>();
  const assistant = (): AssistantMessage => {
    const last = messages.at(-1);
    if (last?.role === 'assistant') return last;
    const created: AssistantMessage = { role: 'assistant', content: [] };
    messages.push(created);
    return created;
  };
  for (const item of input) {
    const type = item.type ?? 'message';
    if (type === 'message' && typeof item.role === 'string' && messageRoles.includes(item.role)) {
      if (item.role === 'assistant') appendAssistantItem(assistant(), item);
      else messages.push(messageItem(item));
    } else if (
      type === 'function_call' &&
      typeof item.call_id === 'string' &&
      typeof item.name === 'string' &&
      typeof item.arguments === 'string'
    ) {
      const { input: parsed, arguments: raw } = parseArguments(item.arguments);
      toolNames.set(item.call_id, item.name);
      assistant().content.push({
        type: 'tool-call',
        toolCallId: item.call_id,
        toolName: item.name,
        input: parsed,
        ...openaiMetadata(
          { [itemArgumentsMarker]: raw },
          fieldsExcept(item, ['type', 'call_id', 'name', 'arguments']),
        ),
      });
    } else if (type === 'function_call_output' && typeof item.call_id === 'string') {
      const last = messages.at(-1);
      const tool: ToolMessage = last?.role === 'tool' ? last : { role: 'tool', content: [] };
      if (tool !== last) messages.push(tool);
      tool.content.push(resultPart(item, toolNames));
    } else if (type === 'reasoning') {
      assistant().content.push(reasoningPart(item));
    } else if (type.endsWith('_output')) {
      messages.push({ role: 'user', content: [verbatimTextPart(item)] });
    } else {
      assistant().content.push(verbatimTextPart(item));
    }
  }
  return messages;
}

function messageItem(item: OpenAIResponsesItem): Message {
  const role = item.role as string;
  const { parts, marker } = contentParts(item, role);
  return {
    role: role === 'user' ? 'user' : 'system',
    content:
      role === 'user'
        ? parts
        : parts.map((part) => (part.type === 'text' ? part : verbatimTextPart(part as never))),
    ...openaiMetadata(
      { [itemRoleMarker]: role === 'developer' ? 'developer' : undefined, [itemContentMarker]: marker },
      fieldsExcept(item, ['role', 'content']),
    ),
  } as Message;
}

function appendAssistantItem(message: AssistantMessage, item: OpenAIResponsesItem): void {
  const { parts, marker } = contentParts(item, 'assistant');
  const fields = fieldsExcept(item, ['role', 'content']);
  if (
    parts.length === 0 ||
    parts.some(
      (part) =>
        part.type !== 'text' ||
        (part.metadata?.openai !== undefined &&
          isObject(part.metadata.openai) &&
          part.metadata.openai[verbatimKey] !== undefined),
    )
  ) {
    message.content.push(verbatimTextPart(item));
    return;
  }
  const previous = message.content.at(-1);
  const needsMarker = marker !== undefined || Object.keys(fields).length > 0 || previous?.type === 'text';
  const [first, ...rest] = parts as Array<Extract<OpenAIResponsesPart, { type: 'text' }>>;
  const marked = needsMarker
    ? {
        ...first!,
        metadata: {
          ...first!.metadata,
          openai: {
            ...(isObject(first!.metadata?.openai) ? first!.metadata.openai : {}),
            [itemMarker]: {
              ...(Object.keys(fields).length > 0 ? { fields } : {}),
              ...(marker === undefined ? {} : { content: marker }),
            },
          },
        },
      }
    : first!;
  message.content.push(marked, ...rest);
}

/** Content parts of a message item and the `parts` marker when a string could have replaced the array. */
function contentParts(
  item: OpenAIResponsesItem,
  role: string,
): { parts: OpenAIResponsesPart[]; marker?: string } {
  const content = item.content;
  if (typeof content === 'string') return { parts: [{ type: 'text', text: content }] };
  if (!Array.isArray(content)) return { parts: [] };
  const parts = content.map((part) => responsesPartToCore(part as OpenAIResponsesItem, role));
  const plainSingle = parts.length === 1 && parts[0]!.type === 'text' && parts[0]!.metadata === undefined;
  return plainSingle ? { parts, marker: 'parts' } : { parts };
}

function resultPart(item: OpenAIResponsesItem, toolNames: Map<string, string>): ToolResultPart {
  const callId = item.call_id as string;
  const output = item.output;
  const base = { type: 'tool-result' as const, toolCallId: callId, toolName: toolNames.get(callId) ?? '' };
  if (typeof output === 'string') {
    return { ...base, output, ...openaiMetadata({}, fieldsExcept(item, ['type', 'call_id', 'output'])) };
  }
  if (Array.isArray(output)) {
    const parts = output.map((part) =>
      responsesPartToCore(part as OpenAIResponsesItem, 'user'),
    ) as ToolResultContentPart[];
    return {
      ...base,
      output: parts,
      ...openaiMetadata({}, fieldsExcept(item, ['type', 'call_id', 'output'])),
    };
  }
  return {
    ...base,
    output: JSON.stringify(output ?? null),
    metadata: { openai: { [verbatimKey]: item as JSONObject } },
  };
}

function reasoningPart(item: OpenAIResponsesItem): ReasoningPart {
  const summary = Array.isArray(item.summary) ? item.summary : [];
  const text = summary
    .map((entry) => (isObject(entry) && typeof entry.text === 'string' ? entry.text : ''))
    .join('\n\n');
  const encrypted = typeof item.encrypted_content === 'string' ? item.encrypted_content : undefined;
  const fields = fieldsExcept(item, [
    'type',
    'summary',
    ...(encrypted === undefined ? [] : ['encrypted_content']),
  ]);
  const part: ReasoningPart = {
    type: 'reasoning',
    text,
    ...(encrypted === undefined ? {} : { redactedData: encrypted }),
  };
  // The summary is rebuilt from the text; keep it only when that would not give it back.
  const rebuilt = defaultSummary(text);
  if (JSON.stringify(rebuilt) !== JSON.stringify(item.summary)) fields.summary = item.summary ?? null;
  if (item.summary === undefined) fields.summary = 'absent';
  return { ...part, ...openaiMetadata({}, fields) };
}

/** The summary written for a reasoning text. */
export function defaultSummary(text: string): JSONObject[] {
  return text === '' ? [] : [{ type: 'summary_text', text }];
}

function assertShape(items: OpenAIResponsesItem[]): void {
  if (!Array.isArray(items)) {
    throw new InvalidMessagesError({
      issues: [{ index: -1, path: '', message: 'input must be a string or an array of items' }],
    });
  }
  const issues: MessageIssue[] = [];
  items.forEach((item, index) => {
    if (!isObject(item)) issues.push({ index, path: '', message: 'expected an item object' });
    else if (item.type === undefined && !messageRoles.includes(item.role as string)) {
      issues.push({ index, path: 'role', message: `unsupported role ${JSON.stringify(item.role)}` });
    } else if (item.type !== undefined && typeof item.type !== 'string') {
      issues.push({ index, path: 'type', message: 'must be a string' });
    }
  });
  if (issues.length > 0) throw new InvalidMessagesError({ issues });
}
