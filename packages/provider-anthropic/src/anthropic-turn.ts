import type {
  JSONObject,
  Message,
  ToolCallPart,
  ToolResultContentPart,
  ToolResultPart,
} from '@compaction/core';
import { isKeyOrder, withKeyOrder } from '@compaction/provider-utils';
import { type AnthropicBlockPart, partToBlock, verbatimBlockKey } from './anthropic-content-blocks.js';
import { anthropicMarkers } from './anthropic-markers.js';
import { anthropicMetadataOf, isObject, storedFields } from './anthropic-metadata.js';
import type { AnthropicContentBlock, AnthropicMessage, AnthropicRequest } from './anthropic-request.js';

/** The role a message of the `messages` list has: system only for a system message that stood there. */
export type AnthropicRole = AnthropicMessage['role'];

/** One message of the request being written, and the core messages it is written from. */
export interface AnthropicTurn {
  role: AnthropicRole;
  blocks: AnthropicContentBlock[];
  /** Core messages the turn came from, with their indexes. */
  sources: Array<{ message: Message; index: number }>;
  /** Parts dropped because Anthropic cannot take them (reasoning without a signature). */
  dropped: number;
}

/** Reports a problem with a part: the path inside the part, and what is wrong. */
export type ReportIssue = (path: string, text: string) => void;

/**
 * The role a core message is written in: `system` for a system message that stood in `messages` (marked by
 * {@link fromAnthropicRequest}), `assistant` for the assistant, `user` for the rest (tool results travel in
 * user turns; other system messages become user text).
 */
export function roleInMessages(message: Message): AnthropicRole {
  if (message.role === 'assistant') return 'assistant';
  if (message.role === 'system' && anthropicMetadataOf(message)?.[anthropicMarkers.systemRole] === 'system') {
    return 'system';
  }
  return 'user';
}

/** Adds a core message's parts to the turn, as blocks; parts Anthropic cannot take are counted as dropped. */
export function addToTurn(turn: AnthropicTurn, message: Message, index: number, report: ReportIssue): void {
  turn.sources.push({ message, index });
  for (const [partIndex, part] of message.content.entries()) {
    const block = partBlock(part, message, (path, text) => report(`content[${partIndex}]${path}`, text));
    if (block === undefined) turn.dropped++;
    else turn.blocks.push(block);
  }
}

/**
 * The Anthropic message of a turn: string content where the request had it, the message's own fields, and
 * the key order the request had. A turn merged from several assistant messages opens with its thinking
 * blocks: the API refuses an assistant turn with thinking that does not start with it, and the position of
 * thinking among the other blocks of one turn carries no meaning for it.
 */
export function turnMessage(turn: AnthropicTurn): AnthropicMessage {
  const first = turn.sources[0]?.message;
  const marks = first === undefined ? undefined : anthropicMetadataOf(first);
  const blocks =
    turn.role === 'assistant' && turn.sources.length > 1 ? thinkingFirst(turn.blocks) : turn.blocks;
  const single = blocks.length === 1 ? blocks[0]! : undefined;
  const content =
    turn.sources.length === 1 &&
    marks?.[anthropicMarkers.stringContent] === 'string' &&
    single?.type === 'text' &&
    Object.keys(single).length === 2
      ? (single.text as string)
      : blocks;
  const messageFields = marks?.[anthropicMarkers.messageFields];
  const fields = isObject(messageFields) ? messageFields : {};
  const message: AnthropicMessage = { role: turn.role, content, ...fields };
  const order = marks?.[anthropicMarkers.keyOrder];
  return isKeyOrder(order) ? withKeyOrder(message, order) : message;
}

/** The `system` parameter written from the leading system messages, as the request had it. */
export function systemParameter(messages: readonly Message[]): AnthropicRequest['system'] {
  if (messages.length === 0) return undefined;
  const blocks = messages.flatMap((message) =>
    message.content.map((part) => partToBlock(part as AnthropicBlockPart)),
  );
  const only = messages.length === 1 ? messages[0]! : undefined;
  const marks = anthropicMetadataOf(messages[0]!);
  const single = blocks.length === 1 ? blocks[0]! : undefined;
  if (
    only !== undefined &&
    marks?.[anthropicMarkers.stringContent] === 'string' &&
    single?.type === 'text' &&
    Object.keys(single).length === 2
  ) {
    return single.text as string;
  }
  const order = marks?.[anthropicMarkers.keyOrder];
  const system = blocks as NonNullable<AnthropicRequest['system']>;
  return isKeyOrder(order) ? withKeyOrder(system, order) : system;
}

/** Whether a block is thinking, readable or redacted. */
function isThinkingBlock(block: AnthropicContentBlock): boolean {
  return block.type === 'thinking' || block.type === 'redacted_thinking';
}

/** The blocks with the thinking ones first, in their order, when the first block is not thinking. */
function thinkingFirst(blocks: AnthropicContentBlock[]): AnthropicContentBlock[] {
  if (blocks.length === 0 || isThinkingBlock(blocks[0]!) || !blocks.some(isThinkingBlock)) return blocks;
  return [...blocks.filter(isThinkingBlock), ...blocks.filter((block) => !isThinkingBlock(block))];
}

function partBlock(
  part: Message['content'][number],
  message: Message,
  report: ReportIssue,
): AnthropicContentBlock | undefined {
  switch (part.type) {
    case 'tool-call':
      return toolUseBlock(part, report);
    case 'tool-result':
      return toolResultBlock(part);
    case 'reasoning':
      if (message.role !== 'assistant') return partToBlock(part);
      if (part.redactedData === undefined && part.signature === undefined && !hasVerbatim(part))
        return undefined;
      return partToBlock(part);
    case 'file':
      if (message.role === 'assistant' && !hasVerbatim(part)) {
        report('', 'Anthropic assistant messages cannot carry files');
        return undefined;
      }
      return partToBlock(part);
    default:
      return partToBlock(part as AnthropicBlockPart);
  }
}

function toolUseBlock(part: ToolCallPart, report: ReportIssue): AnthropicContentBlock {
  const marker = anthropicMetadataOf(part)?.[anthropicMarkers.input];
  const absent = marker === 'absent' && part.input === null;
  if (!absent && !isObject(part.input) && marker !== 'kept') {
    report('.input', 'Anthropic tool inputs must be JSON objects');
  }
  return {
    type: 'tool_use',
    id: part.toolCallId,
    name: part.toolName,
    ...(absent ? {} : { input: part.input }),
    ...storedFields(part, [anthropicMarkers.input]),
  };
}

function toolResultBlock(part: ToolResultPart): AnthropicContentBlock {
  const verbatim = anthropicMetadataOf(part)?.[verbatimBlockKey];
  if (isObject(verbatim) && verbatim.type === 'tool_result') {
    // A content core has no shape for is shown as its JSON; a strategy that shortened it sends the text.
    if (part.output === JSON.stringify(verbatim.content)) return verbatim as AnthropicContentBlock;
    return { ...verbatim, content: outputContent(part) } as unknown as AnthropicContentBlock;
  }
  const omitContent = anthropicMetadataOf(part)?.[anthropicMarkers.noContent] === true && part.output === '';
  return {
    type: 'tool_result',
    tool_use_id: part.toolCallId,
    ...(omitContent ? {} : { content: outputContent(part) }),
    ...(part.isError === undefined ? {} : { is_error: part.isError }),
    ...storedFields(part, [anthropicMarkers.noContent]),
  };
}

function outputContent(part: ToolResultPart): string | AnthropicContentBlock[] {
  return typeof part.output === 'string'
    ? part.output
    : part.output.map((item: ToolResultContentPart) => partToBlock(item));
}

function hasVerbatim(part: { metadata?: JSONObject }): boolean {
  return anthropicMetadataOf(part)?.[verbatimBlockKey] !== undefined;
}
