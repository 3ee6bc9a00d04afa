import { InvalidMessagesError, type JSONObject, type MessageIssue } from '@compaction/core';
import type { AnthropicMessagesRequest } from './anthropic-request.js';

/** What `generate` adds to a request whose conversation holds tool blocks: the tools, and how to use them. */
export interface AnthropicGenerateToolFields {
  tools?: JSONObject[];
  tool_choice?: JSONObject;
}

/** The `tool_choice` `generate` sends with tools unless told otherwise: the answer is text, no tool call. */
export const generateToolChoiceDefault: JSONObject = { type: 'none' };

/**
 * The fields that make a converted conversation one the Messages API accepts from `generate`, which asks for
 * text. A conversation without tool blocks needs none. One with tool calls or results (client, server or MCP)
 * gets the configured `tools` (the agent's own definitions, so the cached prefix, which starts with the tools,
 * still matches) and `toolChoice` as `tool_choice` (none sent when it is `null`): the API refuses `tool_use` or
 * `tool_result` blocks in a request that defines no tools. Throws `InvalidMessagesError`, before any
 * request is made, when no tools are configured, or when the conversation holds MCP connector blocks, which
 * the API reads only with the beta header and `mcp_servers` that `generate` does not send. Made-up
 * definitions would be accepted but would not match the agent's, so nothing would be read from the cache.
 */
export function anthropicGenerateToolFields(
  request: AnthropicMessagesRequest,
  tools: readonly JSONObject[] | undefined,
  toolChoice: JSONObject | null,
): AnthropicGenerateToolFields {
  const toolBlocks = request.messages.flatMap((message, index) =>
    typeof message.content === 'string'
      ? []
      : message.content.flatMap((block, blockIndex) =>
          isToolBlock(block.type) ? [{ index, path: `content[${blockIndex}]`, type: block.type }] : [],
        ),
  );
  const first = toolBlocks[0];
  if (first === undefined) return {};
  const connector = toolBlocks.find((found) => found.type.startsWith('mcp_'));
  const issue = (found: { index: number; path: string }, message: string): MessageIssue => ({
    index: found.index,
    path: found.path,
    message,
  });
  if (connector !== undefined) {
    throw new InvalidMessagesError({
      issues: [
        issue(
          connector,
          `${connector.type} is an MCP connector block: the Messages API reads it only with the MCP beta and ` +
            '`mcp_servers`, which generate does not send',
        ),
      ],
    });
  }
  if (tools === undefined || tools.length === 0) {
    throw new InvalidMessagesError({
      issues: [
        issue(
          first,
          `${first.type}: the Messages API refuses tool blocks in a request that defines no tools; pass the ` +
            "agent's tool definitions as the provider's `tools` setting",
        ),
      ],
    });
  }
  return toolChoice === null ? { tools: [...tools] } : { tools: [...tools], tool_choice: toolChoice };
}

/** Client, server and MCP tool calls and results: every type the API pairs with a tool definition. */
function isToolBlock(type: string): boolean {
  return (
    type === 'tool_use' ||
    type === 'server_tool_use' ||
    type === 'mcp_tool_use' ||
    type.endsWith('tool_result')
  );
}
