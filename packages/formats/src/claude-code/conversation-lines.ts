import { isRecord } from '../conversation-format.js';
import { isMessageLine, type SessionLog } from './session-lines.js';

/** Which lines of a session log hold the conversation, and which line every other line goes with. */
export interface ConversationLines {
  /** Indexes of the message lines of the conversation, in file order. */
  messages: number[];
  /** Indexes of lines on the conversation's `parentUuid` chain that are not messages (system events). */
  chainEvents: Set<number>;
  /**
   * For every other line, the index of the message line it goes with: it is kept when that line is kept.
   * Lines without an entry here (`summary` lines, and every line of a log with no message) are always kept.
   */
  owners: Map<number, number>;
  /** Whether the lines carry `uuid` and `parentUuid`: then the chain is kept connected when lines go. */
  chained: boolean;
}

/**
 * Finds the conversation in a session log. Claude Code resumes the chain of `parentUuid` links from the newest
 * message line (the last one outside sidechains) back to the root, so that chain is the conversation, together
 * with the tool-result lines of parallel tool calls, which hang off the chain as siblings. Lines of abandoned
 * branches (an edited or interrupted prompt), of sidechains in a main log, and of history before an earlier
 * compaction's boundary are not the conversation. A log without `uuid`s is read line after line.
 *
 * Every other line goes with a message line: a `file-history-snapshot` with the message it snapshots
 * (`messageId`), any other line with the conversation message line before it (or after it, at the start).
 */
export function findConversationLines(log: SessionLog): ConversationLines {
  const { lines } = log;
  const messageIndexes = lines.flatMap((line, index) => (isMessageLine(line) ? [index] : []));
  const main = messageIndexes.filter((index) => lines[index]!.entry!.isSidechain !== true);
  const candidates = main.length > 0 ? main : messageIndexes;
  const leaf = candidates.at(-1);
  const chained = leaf !== undefined && lines[leaf]!.uuid !== undefined;
  const chain = new Set<number>();
  let selected: number[];
  if (leaf === undefined || !chained) {
    selected = candidates;
  } else {
    const byUuid = new Map<string, number>();
    lines.forEach((line, index) => {
      if (line.uuid !== undefined && !byUuid.has(line.uuid)) byUuid.set(line.uuid, index);
    });
    for (let index: number | undefined = leaf; index !== undefined && !chain.has(index); ) {
      chain.add(index);
      const parent: string | null | undefined = lines[index]!.parentUuid;
      index = typeof parent === 'string' ? byUuid.get(parent) : undefined;
    }
    const calls = new Set<string>();
    for (const index of chain) for (const id of toolUseIds(lines[index]!.entry)) calls.add(id);
    const answersChain = (index: number) => {
      const { entry, parentUuid } = lines[index]!;
      if (typeof parentUuid !== 'string' || !chain.has(byUuid.get(parentUuid) ?? -1)) return false;
      const ids = toolResultIds(entry);
      return ids?.every((id) => calls.has(id));
    };
    selected = messageIndexes.filter((index) => chain.has(index) || answersChain(index));
  }

  const isSelected = new Set(selected);
  const chainEvents = new Set([...chain].filter((index) => !isSelected.has(index)));
  const byUuid = new Map<string, number>();
  for (const index of selected) {
    const uuid = lines[index]!.uuid;
    if (uuid !== undefined) byUuid.set(uuid, index);
  }
  const owners = new Map<number, number>();
  let previous: number | undefined;
  let next = 0;
  lines.forEach((line, index) => {
    if (isSelected.has(index)) {
      previous = index;
      return;
    }
    const entry = line.entry;
    if (entry?.type === 'summary' || selected.length === 0) return;
    const snapshotOf = entry?.type === 'file-history-snapshot' ? entry.messageId : undefined;
    const snapshotted = typeof snapshotOf === 'string' ? byUuid.get(snapshotOf) : undefined;
    while (next < selected.length && selected[next]! < index) next++;
    owners.set(index, snapshotted ?? previous ?? selected[next]!);
  });
  return { messages: selected, chainEvents, owners, chained };
}

function contentBlocks(entry: Record<string, unknown> | undefined): Record<string, unknown>[] | undefined {
  const message = entry?.message;
  if (!isRecord(message) || !Array.isArray(message.content)) return undefined;
  return message.content.filter(isRecord);
}

function toolUseIds(entry: Record<string, unknown> | undefined): string[] {
  return (contentBlocks(entry) ?? []).flatMap((block) =>
    block.type === 'tool_use' && typeof block.id === 'string' ? [block.id] : [],
  );
}

/** The ids a line answers when it holds tool results only; `undefined` for any other line. */
function toolResultIds(entry: Record<string, unknown> | undefined): string[] | undefined {
  if (entry?.type !== 'user') return undefined;
  const blocks = contentBlocks(entry);
  if (blocks === undefined || blocks.length === 0) return undefined;
  const ids = blocks.map((block) =>
    block.type === 'tool_result' && typeof block.tool_use_id === 'string' ? block.tool_use_id : undefined,
  );
  return ids.every((id) => id !== undefined) ? (ids as string[]) : undefined;
}
