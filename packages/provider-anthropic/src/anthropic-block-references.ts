import { isObject } from './anthropic-metadata.js';
import type { AnthropicContentBlock } from './anthropic-request.js';

/**
 * The tool-use ids a block opens (`tool_use`, `server_tool_use`, `mcp_tool_use`...) and the ids it refers to
 * other than as a client tool's answer: a server tool's result (`tool_use_id` of `web_search_tool_result`,
 * `code_execution_tool_result`...) and the code execution a tool is called from (`caller.tool_id`). A
 * `tool_result` answers the turn right before it, which core's turn grouping already keeps together.
 */
export function blockReferences(block: AnthropicContentBlock): { opens?: string; refersTo: string[] } {
  const refersTo: string[] = [];
  if (block.type !== 'tool_result' && typeof block.tool_use_id === 'string') refersTo.push(block.tool_use_id);
  const caller = block.caller;
  if (isObject(caller) && typeof caller.tool_id === 'string') refersTo.push(caller.tool_id);
  const opens = block.type.endsWith('tool_use') && typeof block.id === 'string' ? block.id : undefined;
  return opens === undefined ? { refersTo } : { opens, refersTo };
}
