import {
  type AssistantMessage,
  compactionMetadataOf,
  InvalidMessagesError,
  isJSONValue,
  type JSONObject,
  type Message,
  type Metadata,
  type SystemMessage,
  type ToolMessage,
  type ToolResultContentPart,
  type ToolResultPart,
  type UserMessage,
} from '@compaction/core';
import { joinSpans, keyOrderDifference, notPlainJsonIssue } from '@compaction/provider-utils';
import { blockReferences } from './anthropic-block-references.js';
import { blockToPart } from './anthropic-content-blocks.js';
import { anthropicMarkers } from './anthropic-markers.js';
import { anthropicMetadata, fieldsExcept, isObject } from './anthropic-metadata.js';
import type {
  AnthropicContentBlock,
  AnthropicMessage,
  AnthropicRequest,
  AnthropicRequestInput,
} from './anthropic-request.js';
import { type AnthropicTurn, addToTurn, systemParameter, turnMessage } from './anthropic-turn.js';

/**
 * Converts the conversation of an Anthropic Messages request (`system` and `messages`) to core messages,
 * losslessly: {@link toAnthropicRequest} gives back the same request, key order included.
 *
 * - `system` becomes one system message; a system message inside `messages` stays a system message, marked so
 *   that it goes back to its place; a user message's `tool_result` blocks become core `tool` messages (the
 *   rest of the user message stays a user message, in order);
 * - fields core parts do not hold (`cache_control`, `citations`, document `title`, a tool's `caller`...) are
 *   kept in `metadata.anthropic`, and block types core has no part for are kept verbatim there;
 * - tool results take their `toolName` from the matching `tool_use` (empty when there is none);
 * - a message that refers to a tool use opened in an earlier message (a tool called from code execution, a
 *   server tool's result after a `pause_turn`) is marked `metadata.compaction.joinsPrevious`, and so is every
 *   message between them, so that turn grouping keeps the span whole.
 *
 * Throws {@link InvalidMessagesError} when `request` is not shaped like a Messages request.
 */
export function fromAnthropicRequest(input: AnthropicRequestInput): Message[] {
  // The input is plain JSON in practice; its blocks are read field by field.
  const request = input as unknown as AnthropicRequest;
  assertRequestShape(request);
  const messages: Message[] = [];
  const toolNames = new Map<string, string>();
  if (request.system !== undefined) messages.push(systemParameterMessage(request.system));
  /** Index of the first core message of each request message, then the end. */
  const starts: number[] = [];
  /** The request message each tool-use id was opened in. */
  const openedIn = new Map<string, number>();
  /** Spans of request messages that must stay one turn: from the one that opens an id to the one using it. */
  const spans: Array<{ from: number; to: number }> = [];
  request.messages.forEach((message, index) => {
    const startsNewTurn = index > 0 && request.messages[index - 1]!.role === message.role;
    starts.push(messages.length);
    messages.push(...convertMessage(message, startsNewTurn, toolNames));
    let earliest = index;
    if (Array.isArray(message.content)) {
      for (const block of message.content) {
        const { opens, refersTo } = blockReferences(block);
        for (const id of refersTo) earliest = Math.min(earliest, openedIn.get(id) ?? index);
        if (opens !== undefined && !openedIn.has(opens)) openedIn.set(opens, index);
      }
    }
    if (earliest < index) spans.push({ from: earliest, to: index });
  });
  starts.push(messages.length);
  return joinSpans(
    messages,
    spans.map(({ from, to }) => ({ first: starts[from + 1]!, end: starts[to + 1]! })),
  );
}

/**
 * The core messages of one request message, the first marked with what the message alone cannot show: that it
 * started a new turn, its own fields, and its key order where it differs from the one written back.
 */
function convertMessage(
  message: AnthropicMessage,
  startsNewTurn: boolean,
  toolNames: Map<string, string>,
): Message[] {
  const converted =
    message.role === 'assistant'
      ? [assistantMessage(message, toolNames)]
      : message.role === 'system'
        ? [mark(systemMessage(message.content), { [anthropicMarkers.systemRole]: 'system' })]
        : userMessages(message, toolNames);
  const fields = fieldsExcept(message, ['role', 'content']);
  const marks: JSONObject = {};
  if (startsNewTurn) marks[anthropicMarkers.newTurn] = true;
  if (Object.keys(fields).length > 0) marks[anthropicMarkers.messageFields] = fields;
  const first = Object.keys(marks).length > 0 ? mark(converted[0]!, marks) : converted[0]!;
  const turn: AnthropicTurn = { role: message.role, blocks: [], sources: [], dropped: 0 };
  [first, ...converted.slice(1)].forEach((core, index) => {
    addToTurn(turn, core, index, () => {});
  });
  const order = keyOrderDifference(message, turnMessage(turn));
  converted[0] = order === undefined ? first : mark(first, { [anthropicMarkers.keyOrder]: order });
  return converted;
}

function systemParameterMessage(system: NonNullable<AnthropicRequest['system']>): SystemMessage {
  const message = systemMessage(system);
  const order = keyOrderDifference(system, systemParameter([message]));
  return order === undefined ? message : mark(message, { [anthropicMarkers.keyOrder]: order });
}

function systemMessage(system: string | readonly AnthropicContentBlock[]): SystemMessage {
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
      if (block.type === 'tool_use' && isNonEmptyString(block.id) && isNonEmptyString(block.name)) {
        toolNames.set(block.id, block.name);
        return {
          type: 'tool-call' as const,
          toolCallId: block.id,
          toolName: block.name,
          input: block.input ?? null,
          ...anthropicMetadata({
            ...fieldsExcept(block, ['type', 'id', 'name', 'input']),
            [anthropicMarkers.input]:
              block.input === undefined ? 'absent' : isObject(block.input) ? undefined : 'kept',
          }),
        };
      }
      const part = blockToPart(block);
      // Assistant turns cannot carry images or files in core; the block goes back as it came.
      return part.type === 'image' || part.type === 'file' ? toVerbatimText(block) : part;
    }),
  };
}

function userMessages(message: AnthropicMessage, toolNames: Map<string, string>): Message[] {
  if (typeof message.content === 'string') {
    return [{ role: 'user', content: [{ type: 'text', text: message.content }], ...stringMarker() }];
  }
  if (message.content.length === 0) return [{ role: 'user', content: [] }];
  const messages: Array<UserMessage | ToolMessage> = [];
  // The core message holding an earlier compaction's note or summary, which takes no other part.
  let note: UserMessage | undefined;
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
      if (isCompactionNote(userPart)) {
        note = { role: 'user', content: [userPart] };
        messages.push(note);
      } else if (last?.role === 'user' && last !== note) last.content.push(userPart);
      else messages.push({ role: 'user', content: [userPart] });
    }
  }
  return messages;
}

/**
 * Whether a user part is the removal note or summary an earlier compaction left (`[3 earlier messages skipped
 * ...]`, `[Summary of 12 earlier messages, compaction round 2; ...]`). This format joins consecutive user
 * messages into one, so a note or summary written back stands in one message with tool results, the task or
 * the user's next words; read as a message of its own again, it is what core reads as a marker or summary,
 * which the next compaction merges with, instead of part of a user request kept verbatim (that would carry a
 * note along, into the task's message once the turns between are removed, and pile summary on summary in the
 * task's message). Written back, the messages join again as they came.
 */
function isCompactionNote(part: UserMessage['content'][number]): boolean {
  const kind = compactionMetadataOf({ role: 'user', content: [part] })?.kind;
  return kind === 'marker' || kind === 'summary';
}

function isToolResult(block: AnthropicContentBlock): boolean {
  return block.type === 'tool_result' && isNonEmptyString(block.tool_use_id);
}

/** Core needs ids and names; a block without them is carried verbatim instead. */
function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
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
  if (content === undefined) extra[anthropicMarkers.noContent] = true;
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
  return { metadata: { anthropic: { [anthropicMarkers.stringContent]: 'string' } } };
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
  } else if (
    Array.isArray(system) &&
    !system.every((block) => isObject(block) && typeof block.type === 'string' && isJSONValue(block))
  ) {
    issues.push({ index: -1, path: 'system', message: 'must hold blocks of plain JSON' });
  }
  request.messages.forEach((message, index) => {
    if (!isObject(message as unknown) || !['user', 'assistant', 'system'].includes(message.role)) {
      issues.push({ index, path: 'role', message: 'must be "user", "assistant" or "system"' });
    } else if (typeof message.content !== 'string' && !Array.isArray(message.content)) {
      issues.push({ index, path: 'content', message: 'must be a string or an array of blocks' });
    } else if (!isJSONValue(message)) {
      issues.push(notPlainJsonIssue(index));
    } else if (Array.isArray(message.content)) {
      message.content.forEach((block, blockIndex) => {
        if (!isObject(block as unknown) || typeof block.type !== 'string') {
          issues.push({ index, path: `content[${blockIndex}]`, message: 'must be a block with a type' });
        } else if (block.type === 'tool_result' && Array.isArray(block.content)) {
          // Only a client tool's result is read block by block; other blocks are carried as they are.
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
