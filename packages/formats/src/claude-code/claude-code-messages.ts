import type { Message } from '@compaction/core';
import { parseSessionLog } from './session-lines.js';
import { readSessionMessages } from './session-messages.js';

/**
 * Reads a Claude Code session log (JSONL) into core messages, as Claude Code resumes the session: the
 * `parentUuid` chain from the newest line back to the start, so an abandoned branch (a prompt edited and sent
 * again) is left out. Consecutive user lines are one user turn, lines of one API response (same `message.id`)
 * are one assistant message, thinking blocks become reasoning with their signatures, and tool results (which
 * Anthropic carries in user turns) become tool messages. These are the messages `compaction compact --from
 * claude-code` reads; a broken line is a `FormatError` of reason `input` that names it.
 */
export function claudeCodeToMessages(jsonl: string): Message[] {
  return readSessionMessages(parseSessionLog(jsonl)).messages;
}
