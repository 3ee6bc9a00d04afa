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
import { type ConversationLines, findConversationLines } from './conversation-lines.js';
import type { SessionLog } from './session-lines.js';

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

/** A session read into messages, with where each message and part came from, to write it back. */
export interface SessionSource {
  log: SessionLog;
  conversation: ConversationLines;
  messages: Message[];
  /** The lines of each message, in file order. */
  messageLines: number[][];
  /** For each conversation line, what each of its blocks became. */
  blockOwners: Map<number, BlockOwner[]>;
  /** The source of each part of each message, in order. */
  partSources: BlockSource[][];
  /** Sources of parts by identity, and of tool calls and results by id (`tool-call:toolu_1`). */
  sourceOfPart: Map<Part, BlockSource>;
  sourceOfCall: Map<string, BlockSource>;
}

/** The key of a tool call or result in {@link SessionSource.sourceOfCall}. */
export function callKey(part: Part): string | undefined {
  return part.type === 'tool-call' || part.type === 'tool-result'
    ? `${part.type}:${part.toolCallId}`
    : undefined;
}

/**
 * Reads the conversation of a session log (see {@link findConversationLines}) into core messages:
 *
 * - assistant lines of one API response (same `message.id`, one after the other) make one message;
 * - a user line's `tool_result` blocks make a tool message; its other blocks are user content;
 * - consecutive user lines make one user message, as Claude Code sends them in one user turn. So meta lines
 *   (`isMeta`, `<local-command-caveat>`, `<command-name>` wrappers, `<local-command-stdout>`) are part of the
 *   prompt they come with, and never a request of their own before the real one: a session that starts with
 *   a local command has the user's real first prompt in its first message, the original task;
 * - a line Compaction wrote (with a `compaction` field) is a message of its own, with those marks.
 */
export function readSessionMessages(log: SessionLog): SessionSource {
  const conversation = findConversationLines(log);
  const messages: Message[] = [];
  const messageLines: number[][] = [];
  const partSources: BlockSource[][] = [];
  const blockOwners = new Map<number, BlockOwner[]>();
  const toolNames = new Map<string, string>();
  let lastAssistantId: string | undefined;
  let openUserMessage: number | undefined;
  // Conversation lines that gave no part (blocks core has no part for): they go with a message line near them.
  const partless: number[] = [];

  const start = (message: Message, line: number): number => {
    messages.push(message);
    messageLines.push([line]);
    partSources.push([]);
    return messages.length - 1;
  };
  const add = (index: number, parts: readonly Part[], line: number, block: number): BlockOwner => {
    const message = messages[index]!;
    const owner: BlockOwner = { message: index, parts: [] };
    for (const part of parts) {
      owner.parts.push(message.content.length);
      (message.content as Part[]).push(part);
      partSources[index]!.push({ line, block, message: index });
    }
    const lines = messageLines[index]!;
    if (lines.at(-1) !== line) lines.push(line);
    return owner;
  };

  for (const lineIndex of conversation.messages) {
    const entry = log.lines[lineIndex]!.entry!;
    const number = lineIndex + 1;
    const message = entry.message as Record<string, unknown>;
    const marks: { metadata?: { compaction: JSONObject } } = isRecord(entry.compaction)
      ? { metadata: { compaction: entry.compaction as JSONObject } }
      : {};
    const content = message.content;
    if (typeof content !== 'string' && !Array.isArray(content)) {
      throw inputError(`line ${number}: message.content must be a string or a list of blocks`);
    }
    const blocks: ClaudeCodeContentBlock[] =
      typeof content === 'string'
        ? [{ type: 'text', text: content }]
        : content.map((block, index) => {
            if (!isRecord(block) || typeof block.type !== 'string') {
              throw inputError(`line ${number}: message.content[${index}] must be a block with a type`);
            }
            return block as ClaudeCodeContentBlock;
          });
    const owners: BlockOwner[] = [];

    if (entry.type === 'system') {
      openUserMessage = lastAssistantId = undefined;
      const index = start({ role: 'system', content: [], ...marks }, lineIndex);
      const text = blocks.map((block) => (typeof block.text === 'string' ? block.text : '')).join('\n');
      const owner = add(index, [{ type: 'text', text }], lineIndex, 0);
      blockOwners.set(
        lineIndex,
        blocks.map(() => owner),
      );
      continue;
    }

    if (entry.type === 'assistant') {
      openUserMessage = undefined;
      const id = typeof message.id === 'string' ? message.id : undefined;
      const previous = messages.length - 1;
      const continues =
        id !== undefined &&
        id === lastAssistantId &&
        messages[previous]?.role === 'assistant' &&
        !marks.metadata;
      const parts = blocks.map((block) => assistantParts(block, toolNames));
      lastAssistantId = marks.metadata ? undefined : id;
      if (!continues && parts.every((list) => list.length === 0)) {
        partless.push(lineIndex);
        continue;
      }
      const index = continues ? previous : start({ role: 'assistant', content: [], ...marks }, lineIndex);
      parts.forEach((list, blockIndex) => {
        owners.push(add(index, list, lineIndex, blockIndex));
      });
      blockOwners.set(lineIndex, owners);
      continue;
    }

    lastAssistantId = undefined;
    const results = blocks.flatMap((block, blockIndex) => (isToolResult(block) ? [blockIndex] : []));
    let toolMessage: number | undefined;
    if (results.length > 0) {
      openUserMessage = undefined;
      toolMessage = start({ role: 'tool', content: [], ...marks }, lineIndex);
    }
    const userBlocks = blocks.flatMap((block, blockIndex) => {
      const parts = results.includes(blockIndex) ? [] : userParts(block);
      return parts.length > 0 ? [{ blockIndex, parts }] : [];
    });
    let userMessage: number | undefined;
    if (userBlocks.length > 0) {
      userMessage =
        openUserMessage !== undefined && !marks.metadata
          ? openUserMessage
          : start({ role: 'user', content: [], ...marks }, lineIndex);
      openUserMessage = marks.metadata ? undefined : userMessage;
    }
    const lineMessage = toolMessage ?? userMessage;
    if (lineMessage === undefined) {
      partless.push(lineIndex);
      continue;
    }
    blocks.forEach((block, blockIndex) => {
      if (results.includes(blockIndex)) {
        owners.push(add(toolMessage!, [toolResultPart(block, toolNames)], lineIndex, blockIndex));
        return;
      }
      const parts = userBlocks.find((candidate) => candidate.blockIndex === blockIndex)?.parts ?? [];
      owners.push(add(parts.length > 0 ? userMessage! : lineMessage, parts, lineIndex, blockIndex));
    });
    blockOwners.set(lineIndex, owners);
  }

  const owned = conversation.messages.filter((index) => blockOwners.has(index));
  for (const lineIndex of partless) {
    const owner =
      owned.filter((index) => index < lineIndex).at(-1) ?? owned.find((index) => index > lineIndex);
    if (owner !== undefined) conversation.owners.set(lineIndex, owner);
    // Still a link of the chain: kept lines may point to it.
    conversation.chainEvents.add(lineIndex);
  }
  // Lines owned by a line that gave no part go with that line's own owner.
  for (const [lineIndex, owner] of conversation.owners) {
    const final = conversation.owners.get(owner);
    if (final !== undefined) conversation.owners.set(lineIndex, final);
  }
  conversation.messages = owned;

  const sourceOfPart = new Map<Part, BlockSource>();
  const sourceOfCall = new Map<string, BlockSource>();
  messages.forEach((message, index) => {
    message.content.forEach((part, partIndex) => {
      const source = partSources[index]![partIndex]!;
      sourceOfPart.set(part, source);
      const key = callKey(part);
      if (key !== undefined && !sourceOfCall.has(key)) sourceOfCall.set(key, source);
    });
  });
  return { log, conversation, messages, messageLines, blockOwners, partSources, sourceOfPart, sourceOfCall };
}
