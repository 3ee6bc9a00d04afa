import {
  type AssistantMessage,
  InvalidMessagesError,
  type JSONObject,
  type Message,
  type Metadata,
  type SystemMessage,
  type ToolMessage,
  type ToolResultContentPart,
  type ToolResultPart,
  type UserMessage,
} from '@compaction/core';
import { blockToPart } from './anthropic-content-blocks.js';
import { anthropicMetadata, fieldsExcept, isObject } from './anthropic-metadata.js';
import type {
  AnthropicContentBlock,
  AnthropicMessage,
  AnthropicRequest,
  AnthropicRequestInput,
} from './anthropic-request.js';

/** Message marker: the Anthropic message had a string `content`, not blocks. */
export const stringContentMarker = 'content';
/** Message marker: the message started a new Anthropic message although the one before had the same role. */
export const newTurnMarker = 'newTurn';
/** Tool-result marker: the `tool_result` block had no `content` field. */
export const noContentMarker = 'noContent';

/**
 * Converts the conversation of an Anthropic Messages request (`system` and `messages`) to core messages,
 * losslessly: {@link toAnthropicRequest} gives back an equal request.
 *
 * - `system` becomes one system message; a user message's `tool_result` blocks become core `tool` messages
 *   (the rest of the user message stays a user message, in order);
 * - fields core parts do not hold (`cache_control`, `citations`, document `title`...) are kept in
 *   `metadata.anthropic`, and block types core has no part for are kept verbatim there;
 * - tool results take their `toolName` from the matching `tool_use` (empty when there is none).
 *
 * Throws {@link InvalidMessagesError} when `request` is not shaped like a Messages request.
 */
export function fromAnthropicRequest(input: AnthropicRequestInput): Message[] {
  // The input is plain JSON in practice; its blocks are read field by field.
  const request = input as unknown as AnthropicRequest;
  assertRequestShape(request);
  const messages: Message[] = [];
  const toolNames = new Map<string, string>();
  if (request.system !== undefined) messages.push(systemMessage(request.system));
  request.messages.forEach((message, index) => {
    const startsNewTurn = index > 0 && request.messages[index - 1]!.role === message.role;
    const converted =
      message.role === 'assistant'
        ? [assistantMessage(message, toolNames)]
        : userMessages(message, toolNames);
    converted.forEach((core, position) => {
      messages.push(position === 0 && startsNewTurn ? mark(core, { [newTurnMarker]: true }) : core);
    });
  });
  return messages;
}

function systemMessage(system: NonNullable<AnthropicRequest['system']>): SystemMessage {
  if (typeof system === 'string') {
    return { role: 'system', content: [{ type: 'text', text: system }], ...stringMarker() };
  }
  return {
    role: 'system',
    content: system.map((block) => {
      const part = blockToPart(block);
      return part.type === 'text' ? part : toVerbatimText(block);
    }),
  };
}

function assistantMessage(message: AnthropicMessage, toolNames: Map<string, string>): Message {
  if (typeof message.content === 'string') {
    return { role: 'assistant', content: [{ type: 'text', text: message.content }], ...stringMarker() };
  }
  return {
    role: 'assistant',
    content: message.content.map((block): AssistantMessage['content'][number] => {
      if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string') {
        toolNames.set(block.id, block.name);
        return {
          type: 'tool-call' as const,
          toolCallId: block.id,
          toolName: block.name,
          input: block.input ?? null,
          ...anthropicMetadata(fieldsExcept(block, ['type', 'id', 'name', 'input'])),
        };
      }
      const part = blockToPart(block);
      return part.type === 'image' ? toVerbatimText(block) : part;
    }),
  };
}

function userMessages(message: AnthropicMessage, toolNames: Map<string, string>): Message[] {
  if (typeof message.content === 'string') {
    return [{ role: 'user', content: [{ type: 'text', text: message.content }], ...stringMarker() }];
  }
  if (message.content.length === 0) return [{ role: 'user', content: [] }];
  const messages: Array<UserMessage | ToolMessage> = [];
  for (const block of message.content) {
    if (isToolResult(block)) {
      const result = toolResultPart(block, toolNames);
      const last = messages.at(-1);
      if (last?.role === 'tool') last.content.push(result);
      else messages.push({ role: 'tool', content: [result] });
    } else {
      const part = blockToPart(block);
      const userPart = part.type === 'reasoning' ? toVerbatimText(block) : part;
      const last = messages.at(-1);
      if (last?.role === 'user') last.content.push(userPart);
      else messages.push({ role: 'user', content: [userPart] });
    }
  }
  return messages;
}

function isToolResult(block: AnthropicContentBlock): boolean {
  return block.type === 'tool_result' && typeof block.tool_use_id === 'string';
}

function toolResultPart(block: AnthropicContentBlock, toolNames: Map<string, string>): ToolResultPart {
  const toolCallId = block.tool_use_id as string;
  const content = block.content;
  const keepIsError = typeof block.is_error === 'boolean';
  const extra: JSONObject = fieldsExcept(block, [
    'type',
    'tool_use_id',
    'content',
    ...(keepIsError ? ['is_error'] : []),
  ]);
  if (content === undefined) extra[noContentMarker] = true;
  const output: string | ToolResultContentPart[] =
    content === undefined
      ? ''
      : typeof content === 'string'
        ? content
        : Array.isArray(content)
          ? content.map((item) => resultContentPart(item as AnthropicContentBlock))
          : JSON.stringify(content);
  if (content !== undefined && typeof content !== 'string' && !Array.isArray(content)) {
    return verbatimResult(block, toolCallId, toolNames);
  }
  return {
    type: 'tool-result',
    toolCallId,
    toolName: toolNames.get(toolCallId) ?? '',
    output,
    ...(keepIsError ? { isError: block.is_error as boolean } : {}),
    ...anthropicMetadata(extra),
  };
}

function verbatimResult(
  block: AnthropicContentBlock,
  toolCallId: string,
  toolNames: Map<string, string>,
): ToolResultPart {
  return {
    type: 'tool-result',
    toolCallId,
    toolName: toolNames.get(toolCallId) ?? '',
    output: JSON.stringify(block.content),
    metadata: { anthropic: { block: block as JSONObject } },
  };
}

function resultContentPart(block: AnthropicContentBlock): ToolResultContentPart {
  const part = blockToPart(block);
  return part.type === 'reasoning' ? toVerbatimText(block) : part;
}

/** A block the role cannot carry as a part (thinking in a user turn...): keep it verbatim as text. */
function toVerbatimText(block: AnthropicContentBlock): { type: 'text'; text: string; metadata: Metadata } {
  return {
    type: 'text',
    text: JSON.stringify(block),
    metadata: { anthropic: { block: block as JSONObject } },
  };
}

function stringMarker(): { metadata: Metadata } {
  return { metadata: { anthropic: { [stringContentMarker]: 'string' } } };
}

function mark<M extends Message>(message: M, fields: JSONObject): M {
  const existing = isObject(message.metadata?.anthropic) ? message.metadata.anthropic : {};
  return { ...message, metadata: { ...message.metadata, anthropic: { ...existing, ...fields } } };
}

function assertRequestShape(request: AnthropicRequest): void {
  const issues: Array<{ index: number; path: string; message: string }> = [];
  if (!isObject(request as unknown) || !Array.isArray(request.messages)) {
    throw new InvalidMessagesError({
      issues: [{ index: -1, path: 'messages', message: 'an Anthropic request needs a messages array' }],
    });
  }
  const system = request.system;
  if (system !== undefined && typeof system !== 'string' && !Array.isArray(system)) {
    issues.push({ index: -1, path: 'system', message: 'must be a string or an array of text blocks' });
  }
  request.messages.forEach((message, index) => {
    if (!isObject(message as unknown) || (message.role !== 'user' && message.role !== 'assistant')) {
      issues.push({ index, path: 'role', message: 'must be "user" or "assistant"' });
    } else if (typeof message.content !== 'string' && !Array.isArray(message.content)) {
      issues.push({ index, path: 'content', message: 'must be a string or an array of blocks' });
    } else if (Array.isArray(message.content)) {
      message.content.forEach((block, blockIndex) => {
        if (!isObject(block as unknown) || typeof block.type !== 'string') {
          issues.push({ index, path: `content[${blockIndex}]`, message: 'must be a block with a type' });
        } else if (Array.isArray(block.content)) {
          block.content.forEach((item, itemIndex) => {
            if (!isObject(item) || typeof item.type !== 'string') {
              issues.push({
                index,
                path: `content[${blockIndex}].content[${itemIndex}]`,
                message: 'must be a block with a type',
              });
            }
          });
        }
      });
    }
  });
  if (issues.length > 0) throw new InvalidMessagesError({ issues });
}
