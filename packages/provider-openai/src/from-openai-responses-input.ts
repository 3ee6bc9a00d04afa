import {
  type AssistantMessage,
  InvalidMessagesError,
  isJSONValue,
  type JSONObject,
  type Message,
  type ReasoningPart,
  type SystemMessage,
  type TextPart,
  type ToolMessage,
  type ToolResultContentPart,
  type ToolResultPart,
  type UserMessage,
} from '@compaction/core';
import {
  assertEntries,
  joinSpans,
  type KeyOrder,
  keyOrderDifference,
  notPlainJsonIssue,
} from '@compaction/provider-utils';
import { fieldsExcept, isObject, openaiMetadata, parseArguments } from './openai-metadata.js';
import {
  type OpenAIResponsesPart,
  responsesPartToCore,
  verbatimKey,
  verbatimTextPart,
} from './openai-responses-content-parts.js';
import { itemReferences } from './openai-responses-item-references.js';
import {
  assistantMessageItem,
  defaultSummary,
  functionCallItem,
  functionOutputItem,
  messageItem,
  reasoningItem,
} from './openai-responses-item-writer.js';
import { openaiResponsesMarkers } from './openai-responses-markers.js';
import type {
  OpenAIResponsesInput,
  OpenAIResponsesInputLike,
  OpenAIResponsesItem,
} from './openai-responses-request.js';
import { isClientToolSearch, toolCallOfItem, toolResultOfItem } from './openai-responses-tool-items.js';

const messageRoles = ['user', 'system', 'developer', 'assistant'];

/**
 * Converts a Responses API `input` to core messages, losslessly: {@link toOpenAIResponsesInput} gives back
 * the same input, byte for byte once serialized (key order included).
 *
 * - user, system and developer message items become messages of their role;
 * - consecutive assistant-side items (assistant messages, calls, reasoning, server tool items) become one
 *   assistant message, part by part in order; consecutive answers to calls become one tool message;
 * - every call the client answers becomes a tool call: `function_call`, and the custom tool, computer,
 *   local shell, shell, apply_patch and client tool search calls (by `call_id`) and MCP approval requests
 *   (by `id`); the item answering it (`*_output`, `mcp_approval_response`; a `local_shell_call_output` may
 *   name its call by `id`, as the SDK's type does) becomes its tool result, showing
 *   the output as text (or images) to strategies and keeping the item itself in `metadata.openai.sourceItem`;
 * - reasoning keeps its summary as text, `encrypted_content` as `redactedData`, and its `id` in metadata;
 * - other items (server tools such as web search and tool searches the server ran, with or without their
 *   output, programs, item references...) are kept verbatim in the
 *   assistant message, shown as their JSON; an answer whose call is not in the input (it was in an earlier
 *   response, as with `previous_response_id`) is kept verbatim as a user message, what the application sends;
 * - an item that refers to one in an earlier message (a tool called from a program, the `program_output`
 *   that closes it, an `mcp_call` made under an approval) marks its message, and every message in between,
 *   `metadata.compaction.joinsPrevious`, so turn grouping keeps the span whole.
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
        metadata: { openai: { [openaiResponsesMarkers.stringInput]: 'string' } },
      },
    ];
  }
  return convertResponsesItems(input, new Map());
}

/**
 * Converts input items to core messages (see {@link fromOpenAIResponsesInput}); `toolNames` holds the calls
 * made before these items (by id, with their tool's name), and the calls among them are added to it. A
 * conversation that converts its items as they are appended passes the same map each time, so an answer is
 * paired with a call that came in an earlier group.
 */
export function convertResponsesItems(
  input: OpenAIResponsesItem[],
  toolNames: Map<string, string>,
): Message[] {
  assertShape(input);
  const messages: Message[] = [];
  // Consecutive items of one role make one message: a call or an output joins the last message of its role.
  const assistant = (): AssistantMessage => lastOfRole(messages, 'assistant');
  const tool = (): ToolMessage => lastOfRole(messages, 'tool');
  /** The message each opened id landed in. */
  const openedIn = new Map<string, number>();
  /** Spans of messages that must stay one turn: from the one that opened an id to the one using it. */
  const spans: Array<{ from: number; to: number }> = [];
  /** The tool searches the input holds an output of: each is paired with it, whoever ran it. */
  const searchesWithOutput = new Set(
    input.flatMap((item) =>
      item.type === 'tool_search_output' && isName(item.call_id) ? [item.call_id] : [],
    ),
  );

  for (const item of input) {
    addItem(item);
    const landed = messages.length - 1;
    const { opens, refersTo } = itemReferences(item);
    for (const id of refersTo) {
      const openedAt = openedIn.get(id);
      if (openedAt !== undefined && openedAt < landed) spans.push({ from: openedAt, to: landed });
    }
    for (const id of opens) if (!openedIn.has(id)) openedIn.set(id, landed);
  }
  return joinSpans(
    messages,
    spans.map(({ from, to }) => ({ first: from + 1, end: to + 1 })),
  );

  function addItem(item: OpenAIResponsesItem): void {
    const type = item.type ?? 'message';
    if (type === 'message' && typeof item.role === 'string' && messageRoles.includes(item.role)) {
      if (item.role === 'assistant') appendAssistantItem(assistant(), item);
      else messages.push(messageOfItem(item));
      return;
    }
    if (
      type === 'function_call' &&
      isName(item.call_id) &&
      isName(item.name) &&
      typeof item.arguments === 'string'
    ) {
      toolNames.set(item.call_id, item.name);
      assistant().content.push(functionCallPart(item));
      return;
    }
    if (type === 'function_call_output' && isName(item.call_id)) {
      if (toolNames.has(item.call_id)) tool().content.push(functionOutputPart(item, toolNames));
      else answerWithoutCall(item);
      return;
    }
    if (type === 'reasoning' && typeof item.id === 'string') {
      assistant().content.push(reasoningPart(item));
      return;
    }
    // A tool search the server ran needs no output: without one in the input it is kept as it came.
    if (
      type === 'tool_search_call' &&
      !isClientToolSearch(item) &&
      !(isName(item.call_id) && searchesWithOutput.has(item.call_id))
    ) {
      assistant().content.push(verbatimTextPart(item));
      return;
    }
    const call = toolCallOfItem(item);
    if (call !== undefined) {
      toolNames.set(call.toolCallId, call.toolName);
      assistant().content.push(call);
      return;
    }
    const result = toolResultOfItem(item, toolNames);
    if (result !== undefined) {
      if (toolNames.has(result.toolCallId)) tool().content.push(result);
      // The output of a tool search the server ran is the server's, part of the response like its call.
      else if (type === 'tool_search_output' && !isClientToolSearch(item)) {
        assistant().content.push(verbatimTextPart(item));
      } else answerWithoutCall(item);
      return;
    }
    assistant().content.push(verbatimTextPart(item));
  }

  /**
   * An answer whose call is not in the input (it came in an earlier response, as with
   * `previous_response_id`) is what the application sends this turn: a user message holding the item, which
   * no repair removes and which goes back as it came.
   */
  function answerWithoutCall(item: OpenAIResponsesItem): void {
    messages.push({ role: 'user', content: [verbatimTextPart(item)] });
  }
}

/** Adds the key order `item` had to the metadata `owner` carries, where it differs from `written`. */
function withOrder<T extends { metadata?: JSONObject }>(
  owner: T,
  item: OpenAIResponsesItem,
  written: OpenAIResponsesItem,
): T {
  const order = keyOrderDifference(item, written);
  if (order === undefined) return owner;
  const openai = isObject(owner.metadata?.openai) ? owner.metadata.openai : {};
  return {
    ...owner,
    metadata: { ...owner.metadata, openai: { ...openai, [openaiResponsesMarkers.keyOrder]: order } },
  };
}

function messageOfItem(item: OpenAIResponsesItem): Message {
  const role = item.role as string;
  const { parts, marker } = contentParts(item, role);
  const originals = Array.isArray(item.content) ? item.content : [];
  const message = {
    role: role === 'user' ? 'user' : 'system',
    // System messages hold text only: other content is kept as the part it came as.
    content:
      role === 'user'
        ? parts
        : parts.map((part, index) =>
            part.type === 'text' ? part : verbatimTextPart(originals[index] as OpenAIResponsesItem),
          ),
    ...openaiMetadata(
      {
        [openaiResponsesMarkers.itemRole]: role === 'developer' ? 'developer' : undefined,
        [openaiResponsesMarkers.itemContent]: marker,
      },
      fieldsExcept(item, ['role', 'content']),
    ),
  } as UserMessage | SystemMessage;
  return withOrder(message, item, messageItem(message, 'system'));
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
  const texts = parts as TextPart[];
  const written = assistantMessageItem(texts, { fields, parts: marker !== undefined });
  const order: KeyOrder | undefined = keyOrderDifference(item, written);
  const previous = message.content.at(-1);
  // The item's first part says where a new item starts (after another text) and what the item held.
  const needsMarker =
    marker !== undefined ||
    Object.keys(fields).length > 0 ||
    previous?.type === 'text' ||
    order !== undefined;
  const [first, ...rest] = texts;
  const marked = needsMarker
    ? {
        ...first!,
        metadata: {
          ...first!.metadata,
          openai: {
            ...(isObject(first!.metadata?.openai) ? first!.metadata.openai : {}),
            [openaiResponsesMarkers.item]: {
              ...(Object.keys(fields).length > 0 ? { fields } : {}),
              ...(marker === undefined ? {} : { content: marker }),
              ...(order === undefined ? {} : { keyOrder: order }),
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
  if (!isPartList(content)) return { parts: [] };
  const parts = content.map((part) => responsesPartToCore(part as OpenAIResponsesItem, role));
  const plainSingle = parts.length === 1 && parts[0]!.type === 'text' && parts[0]!.metadata === undefined;
  return plainSingle ? { parts, marker: 'parts' } : { parts };
}

function functionCallPart(item: OpenAIResponsesItem) {
  const { input, arguments: raw } = parseArguments(item.arguments as string);
  const part = {
    type: 'tool-call' as const,
    toolCallId: item.call_id as string,
    toolName: item.name as string,
    input,
    ...openaiMetadata(
      { [openaiResponsesMarkers.itemArguments]: raw },
      fieldsExcept(item, ['type', 'call_id', 'name', 'arguments']),
    ),
  };
  return withOrder(part, item, functionCallItem(part));
}

function functionOutputPart(item: OpenAIResponsesItem, toolNames: Map<string, string>): ToolResultPart {
  const callId = item.call_id as string;
  const output = item.output;
  const base = { type: 'tool-result' as const, toolCallId: callId, toolName: toolNames.get(callId) ?? '' };
  const fields = fieldsExcept(item, ['type', 'call_id', 'output']);
  let part: ToolResultPart;
  if (typeof output === 'string') {
    part = { ...base, output, ...openaiMetadata({}, fields) };
  } else if (
    Array.isArray(output) &&
    output.every((entry) => isObject(entry) && typeof entry.type === 'string')
  ) {
    const parts = output.map((entry) =>
      responsesPartToCore(entry as OpenAIResponsesItem, 'user'),
    ) as ToolResultContentPart[];
    part = { ...base, output: parts, ...openaiMetadata({}, fields) };
  } else {
    // An output of another shape is shown as its JSON and sent back as it came.
    return {
      ...base,
      output: JSON.stringify(output ?? null),
      metadata: { openai: { [verbatimKey]: item as JSONObject } },
    };
  }
  return withOrder(part, item, functionOutputItem(part));
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
  // The summary is rebuilt from the text; keep it only when that would not give it back.
  const rebuilt = defaultSummary(text);
  if (JSON.stringify(rebuilt) !== JSON.stringify(item.summary)) fields.summary = item.summary ?? null;
  if (item.summary === undefined) fields.summary = 'absent';
  const part: ReasoningPart = {
    type: 'reasoning',
    text,
    ...(encrypted === undefined ? {} : { redactedData: encrypted }),
    ...openaiMetadata({}, fields),
  };
  return withOrder(part, item, reasoningItem(part));
}

/** The last message when it has `role`, else a new empty message of `role` appended to `messages`. */
function lastOfRole<Role extends 'assistant' | 'tool'>(
  messages: Message[],
  role: Role,
): Extract<Message, { role: Role }> {
  const last = messages.at(-1);
  if (last?.role === role) return last as Extract<Message, { role: Role }>;
  const created = { role, content: [] } as Extract<Message, { role: Role }>;
  messages.push(created);
  return created;
}

function isPartList(content: unknown): content is OpenAIResponsesItem[] {
  return Array.isArray(content) && content.every((part) => isObject(part) && typeof part.type === 'string');
}

function isName(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function assertShape(items: OpenAIResponsesItem[]): void {
  assertEntries(items, 'input must be a string or an array of items', (item, index, issues) => {
    if (!isObject(item)) issues.push({ index, path: '', message: 'expected an item object' });
    else if (item.type === undefined && !messageRoles.includes(item.role as string)) {
      issues.push({ index, path: 'role', message: `unsupported role ${JSON.stringify(item.role)}` });
    } else if (item.type !== undefined && typeof item.type !== 'string') {
      issues.push({ index, path: 'type', message: 'must be a string' });
    } else if (!isJSONValue(item)) {
      issues.push(notPlainJsonIssue(index));
    } else if (
      (item.type ?? 'message') === 'message' &&
      ['user', 'system', 'developer'].includes(item.role as string) &&
      typeof item.content !== 'string' &&
      !isPartList(item.content)
    ) {
      issues.push({ index, path: 'content', message: 'must be a string or an array of content parts' });
    }
  });
}
