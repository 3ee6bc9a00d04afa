import type { JSONObject, Message, Part } from '@compaction/core';
import { isRecord } from '../conversation-format.js';
import { inputError } from '../format-error.js';
import {
  assistantParts,
  type ClaudeCodeContentBlock,
  isToolResult,
  toolResultPart,
  userParts,
} from './claude-code-blocks.js';

/** Where a part came from: a block of a line. */
export interface BlockSource {
  /** The index of the line in the log. */
  line: number;
  /** The index of the block in the line's content (0 for a string content). */
  block: number;
  /** The index of the message the part belongs to. */
  message: number;
}

/** What a block of a conversation line became: parts of one message (none for a block core has no part for). */
export interface BlockOwner {
  message: number;
  parts: number[];
}

/** The marks a line Compaction wrote carries into its message. */
type LineMarks = { metadata?: { compaction: JSONObject } };

/**
 * What reading a session's conversation lines builds, line after line: the messages, the lines and block of
 * each part, and the state that decides whether the next line continues a message (the same API response, the
 * same user turn) or starts one.
 */
export interface SessionReading {
  messages: Message[];
  messageLines: number[][];
  partSources: BlockSource[][];
  blockOwners: Map<number, BlockOwner[]>;
  toolNames: Map<string, string>;
  lastAssistantId: string | undefined;
  openUserMessage: number | undefined;
  /** Conversation lines that gave no part (blocks core has no part for): they go with a message line near them. */
  partless: number[];
}

/** An empty reading, before the first line. */
export function newSessionReading(): SessionReading {
  return {
    messages: [],
    messageLines: [],
    partSources: [],
    blockOwners: new Map(),
    toolNames: new Map(),
    lastAssistantId: undefined,
    openUserMessage: undefined,
    partless: [],
  };
}

/** Reads one conversation line (a parsed `entry`, at index `lineIndex` of the log) into the reading. */
export function readConversationLine(
  reading: SessionReading,
  entry: Record<string, unknown>,
  lineIndex: number,
) {
  const message = entry.message as Record<string, unknown>;
  const marks: LineMarks = isRecord(entry.compaction)
    ? { metadata: { compaction: entry.compaction as JSONObject } }
    : {};
  const blocks = lineBlocks(message.content, lineIndex + 1);
  if (entry.type === 'system') readSystemLine(reading, blocks, marks, lineIndex);
  else if (entry.type === 'assistant') readAssistantLine(reading, message, blocks, marks, lineIndex);
  else readUserLine(reading, blocks, marks, lineIndex);
}

/** A line's content as blocks: a string content is one text block. */
function lineBlocks(content: unknown, number: number): ClaudeCodeContentBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) {
    throw inputError(`line ${number}: message.content must be a string or a list of blocks`);
  }
  return content.map((block, index) => {
    if (!isRecord(block) || typeof block.type !== 'string') {
      throw inputError(`line ${number}: message.content[${index}] must be a block with a type`);
    }
    return block as ClaudeCodeContentBlock;
  });
}

/** A system line is a system message of its own, its blocks' text joined; it ends any open turn. */
function readSystemLine(
  reading: SessionReading,
  blocks: ClaudeCodeContentBlock[],
  marks: LineMarks,
  lineIndex: number,
) {
  reading.openUserMessage = reading.lastAssistantId = undefined;
  const index = startMessage(reading, { role: 'system', content: [], ...marks }, lineIndex);
  const text = blocks.map((block) => (typeof block.text === 'string' ? block.text : '')).join('\n');
  const owner = addParts(reading, index, [{ type: 'text', text }], lineIndex, 0);
  reading.blockOwners.set(
    lineIndex,
    blocks.map(() => owner),
  );
}

/** Assistant lines of one API response (the same `message.id`, one after the other) make one message. */
function readAssistantLine(
  reading: SessionReading,
  message: Record<string, unknown>,
  blocks: ClaudeCodeContentBlock[],
  marks: LineMarks,
  lineIndex: number,
) {
  reading.openUserMessage = undefined;
  const id = typeof message.id === 'string' ? message.id : undefined;
  const previous = reading.messages.length - 1;
  const continues =
    id !== undefined &&
    id === reading.lastAssistantId &&
    reading.messages[previous]?.role === 'assistant' &&
    !marks.metadata;
  const parts = blocks.map((block) => assistantParts(block, reading.toolNames));
  reading.lastAssistantId = marks.metadata ? undefined : id;
  if (!continues && parts.every((list) => list.length === 0)) {
    reading.partless.push(lineIndex);
    return;
  }
  const index = continues
    ? previous
    : startMessage(reading, { role: 'assistant', content: [], ...marks }, lineIndex);
  reading.blockOwners.set(
    lineIndex,
    parts.map((list, blockIndex) => addParts(reading, index, list, lineIndex, blockIndex)),
  );
}

/**
 * A user line's `tool_result` blocks make a tool message; its other blocks are user content, joined to the open
 * user message (consecutive user lines are one turn, as Claude Code sends them) unless Compaction wrote the line.
 */
function readUserLine(
  reading: SessionReading,
  blocks: ClaudeCodeContentBlock[],
  marks: LineMarks,
  lineIndex: number,
) {
  reading.lastAssistantId = undefined;
  const results = blocks.flatMap((block, blockIndex) => (isToolResult(block) ? [blockIndex] : []));
  let toolMessage: number | undefined;
  if (results.length > 0) {
    reading.openUserMessage = undefined;
    toolMessage = startMessage(reading, { role: 'tool', content: [], ...marks }, lineIndex);
  }
  const userBlocks = blocks.flatMap((block, blockIndex) => {
    const parts = results.includes(blockIndex) ? [] : userParts(block);
    return parts.length > 0 ? [{ blockIndex, parts }] : [];
  });
  let userMessage: number | undefined;
  if (userBlocks.length > 0) {
    userMessage =
      reading.openUserMessage !== undefined && !marks.metadata
        ? reading.openUserMessage
        : startMessage(reading, { role: 'user', content: [], ...marks }, lineIndex);
    reading.openUserMessage = marks.metadata ? undefined : userMessage;
  }
  const lineMessage = toolMessage ?? userMessage;
  if (lineMessage === undefined) {
    reading.partless.push(lineIndex);
    return;
  }
  const owners = blocks.map((block, blockIndex) => {
    if (results.includes(blockIndex)) {
      return addParts(
        reading,
        toolMessage!,
        [toolResultPart(block, reading.toolNames)],
        lineIndex,
        blockIndex,
      );
    }
    const parts = userBlocks.find((candidate) => candidate.blockIndex === blockIndex)?.parts ?? [];
    return addParts(reading, parts.length > 0 ? userMessage! : lineMessage, parts, lineIndex, blockIndex);
  });
  reading.blockOwners.set(lineIndex, owners);
}

/** Starts a message at a line; returns its index. */
function startMessage(reading: SessionReading, message: Message, line: number): number {
  reading.messages.push(message);
  reading.messageLines.push([line]);
  reading.partSources.push([]);
  return reading.messages.length - 1;
}

/** Adds a block's parts to a message, recording where each came from. */
function addParts(
  reading: SessionReading,
  index: number,
  parts: readonly Part[],
  line: number,
  block: number,
): BlockOwner {
  const message = reading.messages[index]!;
  const owner: BlockOwner = { message: index, parts: [] };
  for (const part of parts) {
    owner.parts.push(message.content.length);
    (message.content as Part[]).push(part);
    reading.partSources[index]!.push({ line, block, message: index });
  }
  const lines = reading.messageLines[index]!;
  if (lines.at(-1) !== line) lines.push(line);
  return owner;
}
