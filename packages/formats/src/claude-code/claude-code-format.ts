import { createHash } from 'node:crypto';
import type { Message } from '@compaction/core';
import { type ConversationFormat, isRecord } from '../conversation-format.js';
import { inputError } from '../format-error.js';
import { parseJsonWithLocation } from '../json-location.js';
import { derivedUuid } from './derived-uuid.js';
import { messageFields } from './session-line-entry.js';
import { parseSessionLog } from './session-lines.js';
import { readSessionMessages, type SessionSource } from './session-messages.js';
import { writeSession } from './write-session.js';

/**
 * A Claude Code session log: one JSON event per line. The conversation is the `parentUuid` chain Claude Code
 * resumes (see `conversation-lines.ts` and `session-messages.ts` for how lines become messages). Written back
 * into the same log: kept lines unchanged, every other event kept with its message, the chain connected
 * (see `write-session.ts`). Converted from another format, each message is one line, chained by `parentUuid`.
 */
export const claudeCodeFormat: ConversationFormat = {
  name: 'claude-code',
  read(input) {
    if (typeof input !== 'string') throw inputError('a Claude Code session must be JSON lines text');
    const source = readSessionMessages(parseSessionLog(input));
    return { format: 'claude-code', messages: source.messages, source };
  },
  write(messages, input) {
    const source = input?.source as SessionSource | undefined;
    return source === undefined ? freshSession(messages) : writeSession(messages, source);
  },
};

/** Whether a text looks like JSON lines: several lines, each a JSON object. */
export function looksLikeJsonLines(text: string): boolean {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length < 2) return false;
  const first = parseJsonWithLocation(lines[0]!);
  return first.ok && isRecord(first.value);
}

/** A new session log for messages of another format: one line per message, chained by `parentUuid`. */
function freshSession(messages: readonly Message[]): string {
  if (messages.length === 0) throw inputError('a Claude Code session needs at least one message');
  const seed = createHash('sha256').update(JSON.stringify(messages)).digest('hex');
  let parentUuid: string | null = null;
  return messages
    .map((message, index) => {
      const uuid = derivedUuid(`${seed}:${index}`);
      const compaction = message.metadata?.compaction;
      const line = {
        parentUuid,
        ...messageFields(message),
        uuid,
        ...(compaction === undefined ? {} : { compaction }),
      };
      parentUuid = uuid;
      return `${JSON.stringify(line)}\n`;
    })
    .join('');
}
