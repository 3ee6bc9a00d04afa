import type { Message } from '@compaction/core';
import { derivedUuid } from './derived-uuid.js';
import { newLineEntry } from './session-line-entry.js';
import type { SessionSource } from './session-messages.js';

/** A line of the output: a line of the session (as it was, or with changed content), or a new one. */
export interface OutputLine {
  /** The line's index in the session, for lines that were there. */
  index?: number;
  entry?: Record<string, unknown>;
  /** The text to write; `undefined` until a new or rewritten line is serialized. */
  text?: string;
  /** The message a new line carries. */
  message?: Message;
  /** Whether the line is a link of the conversation's chain (message lines, chain events, new lines). */
  conversation: boolean;
}

/**
 * Connects the `parentUuid` chain of the output (see `writeSession`), and gives new lines their `uuid`,
 * `parentUuid`, timestamp and session fields.
 */
export function connectChain(output: OutputLine[], source: SessionSource): void {
  const { lines } = source.log;
  const present = new Set<string>();
  for (const line of output) {
    const uuid = line.entry?.uuid;
    if (typeof uuid === 'string') present.add(uuid);
  }
  const byUuid = new Map<string, number>();
  lines.forEach((line, index) => {
    if (line.uuid !== undefined && !byUuid.has(line.uuid)) byUuid.set(line.uuid, index);
  });
  /** The nearest ancestor of `uuid` (itself included) that is in the output, through removed lines. */
  const keptAncestor = (uuid: string | null | undefined): string | null => {
    const seen = new Set<string>();
    while (typeof uuid === 'string' && !present.has(uuid) && !seen.has(uuid)) {
      seen.add(uuid);
      const index: number | undefined = byUuid.get(uuid);
      uuid = index === undefined ? null : lines[index]!.parentUuid;
    }
    return typeof uuid === 'string' && present.has(uuid) ? uuid : null;
  };
  const setParent = (line: OutputLine, parentUuid: string | null) => {
    if (line.entry === undefined || line.entry.parentUuid === parentUuid) return;
    line.entry = { ...line.entry, parentUuid };
    line.text = undefined;
  };

  let previous: string | null = null;
  for (let position = 0; position < output.length; position++) {
    const line = output[position]!;
    if (line.message !== undefined) {
      // A run of new lines: the last takes the uuid of the removed line the next kept line points to.
      let end = position;
      while (output[end + 1]?.message !== undefined) end++;
      const next = output
        .slice(end + 1)
        .find((candidate) => candidate.conversation && candidate.entry !== undefined);
      const nextParent: unknown = next?.entry?.parentUuid;
      const standIn = typeof nextParent === 'string' && !present.has(nextParent) ? nextParent : undefined;
      const neighbour = next?.entry ?? lastConversationEntry(output, position);
      for (let index = position; index <= end; index++) {
        const uuid: string =
          index === end && standIn !== undefined
            ? standIn
            : derivedUuid(`${String(neighbour?.sessionId ?? '')}:${String(nextParent ?? previous)}:${index}`);
        output[index]!.entry = newLineEntry(
          output[index]!.message!,
          previous,
          uuid,
          neighbour,
          standIn,
          lines,
        );
        present.add(uuid);
        previous = uuid;
      }
      if (next !== undefined) setParent(next, previous);
      position = end;
      continue;
    }
    const entry = line.entry;
    if (entry === undefined || !('parentUuid' in entry)) continue;
    const parent = entry.parentUuid;
    if (typeof parent === 'string' && !present.has(parent)) {
      setParent(line, keptAncestor(parent) ?? (line.conversation ? previous : null));
    }
    if (line.conversation && typeof entry.uuid === 'string') previous = entry.uuid;
  }
}

function lastConversationEntry(output: OutputLine[], before: number): Record<string, unknown> | undefined {
  for (let index = before - 1; index >= 0; index--) {
    const line = output[index]!;
    if (line.conversation && line.entry !== undefined && line.message === undefined) return line.entry;
  }
  return undefined;
}
