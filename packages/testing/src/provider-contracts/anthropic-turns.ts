import { type JSONRecord, stringField } from './json-record.js';

/** One content block of an Anthropic request, with where it sits. A string `content` reads as one text block. */
export interface AnthropicBlock {
  block: JSONRecord;
  path: string;
  messageIndex: number;
}

/**
 * Consecutive `user` or `assistant` messages, which the Messages API combines into one turn; a `system`
 * message (a mid-conversation instruction) is a turn of its own.
 */
export interface AnthropicTurn {
  role: string;
  messageIndexes: number[];
  blocks: AnthropicBlock[];
}

/** The blocks of `message` (already checked to be well formed), in order. */
export function anthropicBlocks(message: JSONRecord, messageIndex: number): AnthropicBlock[] {
  const content = message.content;
  if (typeof content === 'string') {
    return [
      { block: { type: 'text', text: content }, path: `messages[${messageIndex}].content`, messageIndex },
    ];
  }
  return (content as JSONRecord[]).map((block, blockIndex) => ({
    block,
    path: `messages[${messageIndex}].content[${blockIndex}]`,
    messageIndex,
  }));
}

/** Groups well-formed messages into turns the way the API reads them. */
export function anthropicTurns(messages: readonly JSONRecord[]): AnthropicTurn[] {
  const turns: AnthropicTurn[] = [];
  messages.forEach((message, index) => {
    const role = stringField(message, 'role') ?? '';
    const previous = turns.at(-1);
    const blocks = anthropicBlocks(message, index);
    if (previous !== undefined && previous.role === role && role !== 'system') {
      previous.messageIndexes.push(index);
      previous.blocks.push(...blocks);
    } else {
      turns.push({ role, messageIndexes: [index], blocks });
    }
  });
  return turns;
}

/** Where a turn starts, for messages about the whole turn. */
export function turnPath(turn: AnthropicTurn): string {
  return `messages[${turn.messageIndexes[0]}]`;
}

/** The type of a block. */
export function blockType(located: AnthropicBlock): string {
  return stringField(located.block, 'type') ?? '';
}

/** Whether a block is a thinking or redacted thinking block. */
export function isThinkingBlock(located: AnthropicBlock): boolean {
  const type = blockType(located);
  return type === 'thinking' || type === 'redacted_thinking';
}

/** Server tool result block types: each answers a `server_tool_use` with the same id. */
export { anthropicServerToolResultTypes } from '@compaction/formats';

/** Whether the request's thinking configuration turns thinking on (anything but absent or `disabled`). */
export function isAnthropicThinkingEnabled(request: JSONRecord): boolean {
  const thinking = request.thinking;
  if (typeof thinking !== 'object' || thinking === null) return false;
  return (thinking as JSONRecord).type !== 'disabled';
}

/**
 * Whether the request ends inside a tool loop: its last turn is a user turn that opens with tool results,
 * answering the assistant turn before it.
 */
export function endsInToolLoop(turns: readonly AnthropicTurn[]): boolean {
  const last = turns.at(-1);
  const previous = turns.at(-2);
  return (
    last?.role === 'user' &&
    previous?.role === 'assistant' &&
    last.blocks[0] !== undefined &&
    blockType(last.blocks[0]) === 'tool_result'
  );
}
