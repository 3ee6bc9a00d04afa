import type { Message, Part } from '@compaction/core';
import { type ConversationLines, findConversationLines } from './conversation-lines.js';
import type { SessionLog } from './session-lines.js';
import {
  type BlockOwner,
  type BlockSource,
  newSessionReading,
  readConversationLine,
  type SessionReading,
} from './session-reading.js';

export type { BlockOwner, BlockSource } from './session-reading.js';

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
  const reading = newSessionReading();
  for (const lineIndex of conversation.messages) {
    readConversationLine(reading, log.lines[lineIndex]!.entry!, lineIndex);
  }
  attachPartlessLines(conversation, reading);
  const { messages, messageLines, blockOwners, partSources } = reading;
  return { log, conversation, messages, messageLines, blockOwners, partSources, ...partIndexes(reading) };
}

/**
 * Lines that gave no part go with the nearest line that did (the one before, else the one after), so that
 * writing the session back keeps them beside it; they stay links of the chain, as kept lines may point to them.
 */
function attachPartlessLines(conversation: ConversationLines, reading: SessionReading): void {
  const owned = conversation.messages.filter((index) => reading.blockOwners.has(index));
  for (const lineIndex of reading.partless) {
    const owner =
      owned.filter((index) => index < lineIndex).at(-1) ?? owned.find((index) => index > lineIndex);
    if (owner !== undefined) conversation.owners.set(lineIndex, owner);
    conversation.chainEvents.add(lineIndex);
  }
  // Lines owned by a line that gave no part go with that line's own owner.
  for (const [lineIndex, owner] of conversation.owners) {
    const final = conversation.owners.get(owner);
    if (final !== undefined) conversation.owners.set(lineIndex, final);
  }
  conversation.messages = owned;
}

/** The source of each part by identity, and of each tool call and result by id (the first one of an id). */
function partIndexes(reading: SessionReading): Pick<SessionSource, 'sourceOfPart' | 'sourceOfCall'> {
  const sourceOfPart = new Map<Part, BlockSource>();
  const sourceOfCall = new Map<string, BlockSource>();
  reading.messages.forEach((message, index) => {
    message.content.forEach((part, partIndex) => {
      const source = reading.partSources[index]![partIndex]!;
      sourceOfPart.set(part, source);
      const key = callKey(part);
      if (key !== undefined && !sourceOfCall.has(key)) sourceOfCall.set(key, source);
    });
  });
  return { sourceOfPart, sourceOfCall };
}
