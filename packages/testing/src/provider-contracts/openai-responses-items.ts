import { type JSONRecord, stringField } from './json-record.js';

/** Each call item type with a `call_id`, and the output item type that answers it. */
export const openAIResponsesOutputTypeOfCall: Readonly<Record<string, string>> = {
  function_call: 'function_call_output',
  custom_tool_call: 'custom_tool_call_output',
  computer_call: 'computer_call_output',
  local_shell_call: 'local_shell_call_output',
  shell_call: 'shell_call_output',
  apply_patch_call: 'apply_patch_call_output',
  tool_search_call: 'tool_search_output',
  program: 'program_output',
};

/** Each output item type and the call item type it answers. */
export const openAIResponsesCallTypeOfOutput: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(openAIResponsesOutputTypeOfCall).map(([call, output]) => [output, call]),
);

/** Calls the client runs, so the next request must carry their output. */
export const openAIResponsesClientCallTypes: ReadonlySet<string> = new Set([
  'function_call',
  'custom_tool_call',
  'computer_call',
  'local_shell_call',
  'shell_call',
  'apply_patch_call',
]);

/** The type of an input item: `message` for role-only messages, `item_reference` for id-only references. */
export function openAIResponsesItemType(item: JSONRecord): string {
  const type = stringField(item, 'type');
  if (type !== undefined) return type;
  if (typeof item.role === 'string') return 'message';
  return 'item_reference';
}

/**
 * The call id an item carries: `call_id`; a local shell call output without one names its call by `id` (the
 * SDK's type has only `id`, the API and the AI SDK use `call_id`).
 */
export function openAIResponsesCallIdOf(item: JSONRecord): string | undefined {
  const callId = stringField(item, 'call_id');
  if (callId === undefined && openAIResponsesItemType(item) === 'local_shell_call_output') {
    return stringField(item, 'id');
  }
  return callId;
}

/** Whether a client-run call is one whose output the client must send (client tool searches included). */
export function needsClientOutput(item: JSONRecord): boolean {
  const type = openAIResponsesItemType(item);
  if (type === 'tool_search_call') return item.execution === 'client' && typeof item.call_id === 'string';
  return openAIResponsesClientCallTypes.has(type);
}

/** The input items of a request: a string input is one user message. */
export function openAIResponsesInputItems(request: JSONRecord): JSONRecord[] {
  const input = request.input;
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  return input as JSONRecord[];
}

/**
 * Whether items of earlier responses can be referenced (`previous_response_id`, `conversation` or an
 * `item_reference`), so an output or approval may answer a call the input does not show.
 */
export function hasStoredContext(request: JSONRecord, items: readonly JSONRecord[]): boolean {
  const previous = request.previous_response_id;
  const conversation = request.conversation;
  return (
    (typeof previous === 'string' && previous.length > 0) ||
    (conversation !== undefined && conversation !== null) ||
    items.some((item) => openAIResponsesItemType(item) === 'item_reference')
  );
}
