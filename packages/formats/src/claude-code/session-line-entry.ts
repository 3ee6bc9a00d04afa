import type { Message } from '@compaction/core';
import { partToBlock } from './claude-code-blocks.js';
import type { SessionLine } from './session-lines.js';

/** Fields of a neighbouring line that a new line repeats, so Claude Code places it in the same session. */
const contextFields = [
  'isSidechain',
  'userType',
  'cwd',
  'sessionId',
  'version',
  'gitBranch',
  'agentId',
  'slug',
];

/** The entry of a new line: the session fields of its neighbour, the message, and the compaction marks. */
export function newLineEntry(
  message: Message,
  parentUuid: string | null,
  uuid: string,
  neighbour: Record<string, unknown> | undefined,
  standIn: string | undefined,
  lines: readonly SessionLine[],
): Record<string, unknown> {
  const entry: Record<string, unknown> = { parentUuid };
  for (const field of contextFields) if (neighbour?.[field] !== undefined) entry[field] = neighbour[field];
  Object.assign(entry, messageFields(message));
  entry.uuid = uuid;
  const replaced =
    standIn === undefined ? undefined : lines.find((line) => line.uuid === standIn)?.entry?.timestamp;
  const timestamp = replaced ?? neighbour?.timestamp;
  if (timestamp !== undefined) entry.timestamp = timestamp;
  const compaction = message.metadata?.compaction;
  if (compaction !== undefined) entry.compaction = compaction;
  return entry;
}

/** The entry of a new line in a log without `uuid`s: the message and its compaction marks. */
export function unchainedEntry(message: Message): Record<string, unknown> {
  const compaction = message.metadata?.compaction;
  return { ...messageFields(message), ...(compaction === undefined ? {} : { compaction }) };
}

/** `type` and `message` of a line carrying a core message (a tool message is a user line of results). */
export function messageFields(message: Message): { type: string; message: Record<string, unknown> } {
  const role = message.role === 'tool' ? 'user' : message.role;
  return { type: role, message: { role, content: message.content.map(partToBlock) } };
}
