import {
  deepEqual,
  type JSONObject,
  type JSONValue,
  type ToolCallPart,
  type ToolResultContentPart,
  type ToolResultPart,
} from '@compaction/core';
import { fieldsExcept, isObject } from './openai-metadata.js';
import { coreToResponsesPart, responsesPartToCore } from './openai-responses-content-parts.js';
import { openaiResponsesMarkers } from './openai-responses-markers.js';
import type { OpenAIResponsesItem } from './openai-responses-request.js';

/**
 * Tool items other than `function_call` and `function_call_output`: calls the client runs (custom tools,
 * computer use, local shell, shell, apply_patch, client-side tool search) and MCP approval requests, and the
 * items that answer them. Each call becomes a core tool call and its answer a core tool result, so turn
 * grouping keeps them together and strategies see the output; the item itself is kept in
 * `metadata.openai.sourceItem` and written back as it was, or with the output a strategy shortened written
 * in the item's own shape.
 */

/** How a call item becomes a tool call. */
interface CallKind {
  /** The field holding the id the answer repeats. */
  idField: 'call_id' | 'id';
  toolName(item: OpenAIResponsesItem): unknown;
  /** What strategies see as the call's input. */
  input(item: OpenAIResponsesItem): JSONValue;
  /** The field a changed input is written to, for free-text inputs; calls of a fixed shape keep theirs. */
  inputField?: string;
  /** The answer written for a call left without one (core's `repairHistory` adds such results). */
  freshOutput(
    callId: string,
    callItem: OpenAIResponsesItem,
    text: string,
    isError: boolean,
  ): JSONObject | undefined;
}

/** How an answer item becomes a tool result. */
interface OutputKind {
  callId(item: OpenAIResponsesItem): unknown;
  withCallId(item: OpenAIResponsesItem, callId: string): OpenAIResponsesItem;
  /** What strategies see as the output. */
  shown(item: OpenAIResponsesItem): string | ToolResultContentPart[];
  /** The item with a changed output, in its own shape; absent where the shape has no place for text. */
  withOutput?(item: OpenAIResponsesItem, output: string | ToolResultContentPart[]): OpenAIResponsesItem;
}

/** The fields of a call other than its type, ids and status: its input when it has no single input field. */
const payload = (item: OpenAIResponsesItem): JSONValue =>
  fieldsExcept(item, ['type', 'id', 'call_id', 'status']);

/** A call to a built-in tool: its name is fixed and its input is the call's own fields. */
function builtInCall(toolName: string, freshOutput: CallKind['freshOutput']): CallKind {
  return { idField: 'call_id', toolName: () => toolName, input: payload, freshOutput };
}

const callKinds: Record<string, CallKind> = {
  custom_tool_call: {
    idField: 'call_id',
    toolName: (item) => item.name,
    input: (item) => item.input ?? null,
    inputField: 'input',
    freshOutput: (callId, _call, text) => ({
      type: 'custom_tool_call_output',
      call_id: callId,
      output: text,
    }),
  },
  // A computer call is answered with a screenshot, which a placeholder cannot give.
  computer_call: builtInCall('computer', () => undefined),
  local_shell_call: builtInCall('local_shell', (callId, _call, text) => ({
    type: 'local_shell_call_output',
    id: callId,
    output: text,
  })),
  shell_call: builtInCall('shell', (callId, _call, text, isError) => ({
    type: 'shell_call_output',
    call_id: callId,
    output: [shellEntry(text, isError)],
  })),
  apply_patch_call: builtInCall('apply_patch', (callId, _call, text, isError) => ({
    type: 'apply_patch_call_output',
    call_id: callId,
    status: isError ? 'failed' : 'completed',
    output: text,
  })),
  tool_search_call: {
    idField: 'call_id',
    toolName: () => 'tool_search',
    input: (item) => item.arguments ?? null,
    freshOutput: (callId, call) => ({
      type: 'tool_search_output',
      call_id: callId,
      tools: [],
      ...(call.execution === undefined ? {} : { execution: call.execution }),
    }),
  },
  mcp_approval_request: {
    idField: 'id',
    toolName: (item) => item.name,
    input: (item) => item.arguments ?? null,
    // No recorded answer is no approval.
    freshOutput: (callId) => ({ type: 'mcp_approval_response', approval_request_id: callId, approve: false }),
  },
};

/** The kind an item's type names: an own entry only, so that a type such as `valueOf` names none. */
function kindOf<Kind>(kinds: Record<string, Kind>, type: unknown): Kind | undefined {
  return typeof type === 'string' && Object.hasOwn(kinds, type) ? kinds[type] : undefined;
}

const byCallId = {
  callId: (item: OpenAIResponsesItem) => item.call_id,
  withCallId: (item: OpenAIResponsesItem, callId: string) => ({ ...item, call_id: callId }),
};

const outputKinds: Record<string, OutputKind> = {
  custom_tool_call_output: {
    ...byCallId,
    shown: (item) => (Array.isArray(item.output) ? outputParts(item.output) : stringOrJson(item.output)),
    withOutput: (item, output) => ({
      ...item,
      output: typeof output === 'string' ? output : output.map((part) => coreToResponsesPart(part, 'user')),
    }),
  },
  computer_call_output: {
    ...byCallId,
    shown: (item) => {
      const screenshot = item.output;
      return isObject(screenshot) && typeof screenshot.image_url === 'string' && screenshot.image_url !== ''
        ? [{ type: 'image', image: screenshot.image_url }]
        : JSON.stringify(screenshot ?? null);
    },
  },
  local_shell_call_output: {
    // The output names its call by `id` (the call's `call_id`).
    callId: (item) => (typeof item.call_id === 'string' ? item.call_id : item.id),
    withCallId: (item, callId) =>
      typeof item.call_id === 'string' ? { ...item, call_id: callId } : { ...item, id: callId },
    shown: (item) => stringOrJson(item.output),
    withOutput: (item, output) => ({ ...item, output: textOf(output) }),
  },
  shell_call_output: {
    ...byCallId,
    shown: (item) => {
      const entries = item.output;
      if (!Array.isArray(entries) || !entries.every(isShellEntry)) return JSON.stringify(entries ?? null);
      return entries
        .map((entry) => [entry.stdout, entry.stderr].filter((stream) => stream !== '').join('\n'))
        .join('\n');
    },
    withOutput: (item, output) => {
      const first = Array.isArray(item.output) ? item.output[0] : undefined;
      const outcome =
        isObject(first) && isObject(first.outcome) ? first.outcome : { type: 'exit', exit_code: 0 };
      return { ...item, output: [{ stdout: textOf(output), stderr: '', outcome }] };
    },
  },
  apply_patch_call_output: {
    ...byCallId,
    shown: (item) => (typeof item.output === 'string' ? item.output : ''),
    withOutput: (item, output) => ({ ...item, output: textOf(output) }),
  },
  tool_search_output: {
    ...byCallId,
    shown: (item) => JSON.stringify(item.tools ?? null),
  },
  mcp_approval_response: {
    callId: (item) => item.approval_request_id,
    withCallId: (item, callId) => ({ ...item, approval_request_id: callId }),
    shown: (item) =>
      item.approve === true
        ? 'approved'
        : `denied${typeof item.reason === 'string' && item.reason !== '' ? `: ${item.reason}` : ''}`,
  },
};

/** The tool call a call item stands for, or `undefined` for any other item (or one without id or name). */
export function toolCallOfItem(item: OpenAIResponsesItem): ToolCallPart | undefined {
  const kind = kindOf(callKinds, item.type);
  if (kind === undefined) return undefined;
  const toolCallId = item[kind.idField];
  const toolName = kind.toolName(item);
  if (!isName(toolCallId) || !isName(toolName)) return undefined;
  return {
    type: 'tool-call',
    toolCallId,
    toolName,
    input: kind.input(item),
    metadata: { openai: { [openaiResponsesMarkers.sourceItem]: item as JSONObject } },
  };
}

/**
 * Whether a tool search item is the client's (`execution: "client"`): the API runs a tool search itself unless
 * the tool is declared for the client, whose outputs carry `execution: "client"` back. A search the server ran
 * may come with its output in the input or without it.
 */
export function isClientToolSearch(item: OpenAIResponsesItem): boolean {
  return item.execution === 'client';
}

/** The tool result an answer item stands for, or `undefined` for any other item (or one without call id). */
export function toolResultOfItem(
  item: OpenAIResponsesItem,
  toolNames: ReadonlyMap<string, string>,
): ToolResultPart | undefined {
  const kind = kindOf(outputKinds, item.type);
  if (kind === undefined) return undefined;
  const toolCallId = kind.callId(item);
  if (!isName(toolCallId)) return undefined;
  return {
    type: 'tool-result',
    toolCallId,
    toolName: toolNames.get(toolCallId) ?? '',
    output: kind.shown(item),
    metadata: { openai: { [openaiResponsesMarkers.sourceItem]: item as JSONObject } },
  };
}

/**
 * The call item for a tool call made from one: the item as it came, with the call id a repair gave it and,
 * for a free-text input (custom tools), the input a strategy changed. Other inputs have a fixed shape the
 * API checks, so they are sent as they came.
 */
export function callItemOf(part: ToolCallPart, item: OpenAIResponsesItem): OpenAIResponsesItem {
  const kind = kindOf(callKinds, item.type);
  if (kind === undefined) return item;
  let written = item[kind.idField] === part.toolCallId ? item : { ...item, [kind.idField]: part.toolCallId };
  if (kind.inputField !== undefined && !deepEqual(part.input, kind.input(item))) {
    const input = typeof part.input === 'string' ? part.input : JSON.stringify(part.input);
    written = { ...written, [kind.inputField]: input };
  }
  return written;
}

/**
 * The answer item for a tool result made from one: the item as it came, or with the output a strategy
 * changed written in the item's own shape. Screenshots, tool search results and approvals have no place for
 * text: they are sent as they came.
 */
export function outputItemOf(part: ToolResultPart, item: OpenAIResponsesItem): OpenAIResponsesItem {
  const kind = kindOf(outputKinds, item.type);
  if (kind === undefined) return item;
  let written = kind.callId(item) === part.toolCallId ? item : kind.withCallId(item, part.toolCallId);
  if (kind.withOutput !== undefined && !deepEqual(part.output, kind.shown(item))) {
    written = kind.withOutput(written, part.output);
  }
  return written;
}

/**
 * A new answer to a call item, for a result that did not come from an item (a placeholder core's
 * `repairHistory` added), in the shape the call needs: `undefined` for a function call (answered by
 * `function_call_output`) and for calls no text can answer (computer use).
 */
export function freshOutputItem(
  callItem: OpenAIResponsesItem,
  part: ToolResultPart,
): OpenAIResponsesItem | undefined {
  const kind = kindOf(callKinds, callItem.type);
  return kind?.freshOutput(part.toolCallId, callItem, textOf(part.output), part.isError === true) as
    | OpenAIResponsesItem
    | undefined;
}

/** Whether a call item has an answer no text can stand in for. */
export function needsOwnOutput(callItem: OpenAIResponsesItem): boolean {
  return callItem.type === 'computer_call';
}

/** The item a tool call or result was made from, if it was made from a tool item. */
export function sourceItemOf(part: { metadata?: JSONObject }): OpenAIResponsesItem | undefined {
  const openai = part.metadata?.openai;
  const item = isObject(openai) ? openai[openaiResponsesMarkers.sourceItem] : undefined;
  return isObject(item) && typeof item.type === 'string' ? (item as OpenAIResponsesItem) : undefined;
}

function outputParts(output: JSONValue[]): ToolResultContentPart[] | string {
  if (!output.every((part) => isObject(part) && typeof part.type === 'string')) return JSON.stringify(output);
  return output.map((part) =>
    responsesPartToCore(part as OpenAIResponsesItem, 'user'),
  ) as ToolResultContentPart[];
}

function stringOrJson(value: JSONValue | undefined): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? null);
}

/** The text of an output: the string, or its text parts one per line. */
function textOf(output: string | ToolResultContentPart[]): string {
  if (typeof output === 'string') return output;
  return output.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

function shellEntry(text: string, isError: boolean): JSONObject {
  return {
    stdout: isError ? '' : text,
    stderr: isError ? text : '',
    outcome: { type: 'exit', exit_code: isError ? 1 : 0 },
  };
}

function isShellEntry(entry: JSONValue): entry is JSONObject & { stdout: string; stderr: string } {
  return isObject(entry) && typeof entry.stdout === 'string' && typeof entry.stderr === 'string';
}

function isName(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}
