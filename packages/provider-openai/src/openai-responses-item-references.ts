import { isObject } from './openai-metadata.js';
import type { OpenAIResponsesItem } from './openai-responses-request.js';

/**
 * The ids a Responses item opens (a call's `call_id`, an MCP approval request's `id`) and those it refers to
 * other than as the answer to a call (which core's turn grouping keeps with its call already): the program
 * a tool is called from (`caller.caller_id`), the program a `program_output` closes, the approval an
 * `mcp_call` was made under. A model turn split over several messages is held together by these.
 */
export function itemReferences(item: OpenAIResponsesItem): { opens: string[]; refersTo: string[] } {
  const type = item.type ?? 'message';
  const opens: string[] = [];
  const refersTo: string[] = [];
  const answers = type.endsWith('_output') || type === 'mcp_approval_response';
  if (typeof item.call_id === 'string' && !answers) opens.push(item.call_id);
  if (type === 'mcp_approval_request' && typeof item.id === 'string') opens.push(item.id);
  if (type === 'program_output' && typeof item.call_id === 'string') refersTo.push(item.call_id);
  if (type === 'mcp_call' && typeof item.approval_request_id === 'string')
    refersTo.push(item.approval_request_id);
  if (isObject(item.caller) && typeof item.caller.caller_id === 'string')
    refersTo.push(item.caller.caller_id);
  return { opens, refersTo };
}
