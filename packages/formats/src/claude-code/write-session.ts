import type { Message, Part } from '@compaction/core';
import { type ClaudeCodeContentBlock, partToBlock, updatedBlock } from './claude-code-blocks.js';
import { connectChain, type OutputLine } from './connect-session-chain.js';
import { unchainedEntry } from './session-line-entry.js';
import { type BlockSource, callKey, type SessionSource } from './session-messages.js';

/** What became of a message read from the session. */
type Fate =
  | { kind: 'kept' }
  | { kind: 'removed' }
  /** Changed by a strategy: its parts, each with the block it came from when known. */
  | { kind: 'changed'; parts: Array<{ part: Part; source: BlockSource | undefined }> };

/**
 * Writes a compacted conversation back into the session it was read from.
 *
 * - Every line of a kept message is written as it was, byte for byte, and so is every other line (snapshots,
 *   system events, progress, summaries, other branches) that goes with a kept message line.
 * - A line of a message a strategy changed (a shortened tool result) keeps all its fields; only the changed
 *   blocks are replaced (a shortened result's `toolUseResult`, the full output Claude Code shows, is dropped).
 * - A message a strategy wrote (a summary, a marker) is a new line, with the session fields of the line after
 *   it and its compaction marks in a `compaction` field, so a later compaction recognises it.
 * - The `parentUuid` chain stays connected: a new line takes the `uuid` of the removed line the next kept line
 *   pointed to, so that line is written unchanged. Where no new line stands in for removed lines, the next
 *   kept line's `parentUuid` is set to its nearest kept ancestor; a new line between two kept lines (a marker
 *   after the first kept model turn, as strategies place it so that it never joins the task's user turn)
 *   becomes the parent of the kept line after it; before the first message, the first kept line points to
 *   the new lines. `parentUuid` is the only field of a kept line that ever changes.
 */
export function writeSession(messages: readonly Message[], source: SessionSource): string {
  const { fates, originals } = messageFates(messages, source);
  const { lines } = source.log;
  const status = lineStatus(source, fates);

  // Output in order: original lines up to the last line of each kept or changed message, then new lines
  // where a message without a source stands.
  const output: OutputLine[] = [];
  let cursor = 0;
  const emitThrough = (last: number) => {
    for (; cursor <= last; cursor++) {
      const entry = status[cursor];
      if (entry === undefined) continue;
      output.push({
        index: cursor,
        ...(entry.entry === undefined ? {} : { entry: entry.entry }),
        ...(entry.changed ? {} : { text: lines[cursor]!.text }),
        conversation: entry.conversation,
      });
    }
  };
  for (const message of messages) {
    const index = originals.get(message);
    if (index === undefined) {
      output.push({ message, conversation: true });
      continue;
    }
    emitThrough(Math.max(...source.messageLines[index]!));
  }
  emitThrough(lines.length - 1);

  if (source.conversation.chained) connectChain(output, source);
  else {
    for (const line of output) if (line.message !== undefined) line.entry = unchainedEntry(line.message);
  }
  const texts = output.map((line) => line.text ?? serialize(line, source.log));
  return texts.join('\n') + (source.log.endsWithNewline && texts.length > 0 ? '\n' : '');
}

/**
 * What became of each message read: kept (the same object), changed (a new object whose parts come from it:
 * found by the part objects themselves, then by tool-call id, then by position when the count of parts is
 * the same), or removed.
 */
function messageFates(
  messages: readonly Message[],
  source: SessionSource,
): { fates: Map<number, Fate>; originals: Map<Message, number> } {
  const fates = new Map<number, Fate>();
  const originals = new Map<Message, number>();
  const originalIndex = new Map(source.messages.map((message, index) => [message, index]));
  for (const message of messages) {
    const kept = originalIndex.get(message);
    if (kept !== undefined && !fates.has(kept)) {
      fates.set(kept, { kind: 'kept' });
      originals.set(message, kept);
      continue;
    }
    const sources = message.content.map((part) => {
      const key = callKey(part);
      return source.sourceOfPart.get(part) ?? (key === undefined ? undefined : source.sourceOfCall.get(key));
    });
    const original = sources.find((found) => found !== undefined)?.message;
    if (original === undefined || fates.has(original)) continue;
    const originalSources = source.partSources[original]!;
    // A part from another message has no block here: it is written after this message's blocks.
    const parts = message.content.map((part, position) => {
      const found = sources[position];
      if (found !== undefined) return { part, source: found.message === original ? found : undefined };
      const byPosition =
        originalSources.length === message.content.length ? originalSources[position] : undefined;
      return { part, source: byPosition };
    });
    fates.set(original, { kind: 'changed', parts });
    originals.set(message, original);
  }
  source.messages.forEach((_, index) => {
    if (!fates.has(index)) fates.set(index, { kind: 'removed' });
  });
  return { fates, originals };
}

interface LineStatus {
  entry: Record<string, unknown> | undefined;
  /** Whether the line's content changed (it is serialized again). */
  changed: boolean;
  conversation: boolean;
}

/** For each line of the session: how it is written, or `undefined` when it goes. */
function lineStatus(source: SessionSource, fates: Map<number, Fate>): Array<LineStatus | undefined> {
  const { lines } = source.log;
  const status: Array<LineStatus | undefined> = new Array(lines.length).fill(undefined);
  const isMessageLine = new Set(source.conversation.messages);
  for (const index of source.conversation.messages) {
    status[index] = messageLineStatus(index, source, fates);
  }
  lines.forEach((_, index) => {
    if (isMessageLine.has(index)) return;
    const owner = source.conversation.owners.get(index);
    // Owners are conversation message lines, whose status is known by now.
    if (owner !== undefined && status[owner] === undefined) return;
    status[index] = {
      entry: lines[index]!.entry,
      changed: false,
      conversation: source.conversation.chainEvents.has(index),
    };
  });
  return status;
}

function messageLineStatus(
  index: number,
  source: SessionSource,
  fates: Map<number, Fate>,
): LineStatus | undefined {
  const line = source.log.lines[index]!;
  const owners = source.blockOwners.get(index)!;
  const lineFates = owners.map((owner) => fates.get(owner.message)!);
  if (lineFates.every((fate) => fate.kind === 'kept')) {
    return { entry: line.entry, changed: false, conversation: true };
  }
  if (lineFates.every((fate) => fate.kind === 'removed')) return undefined;
  const entry = line.entry!;
  const message = entry.message as Record<string, unknown>;
  const stringContent = typeof message.content === 'string';
  const blocks: ClaudeCodeContentBlock[] = stringContent
    ? [{ type: 'text', text: message.content as string }]
    : (message.content as ClaudeCodeContentBlock[]);
  const written: ClaudeCodeContentBlock[] = [];
  let resultChanged = false;
  blocks.forEach((block, blockIndex) => {
    const owner = owners[blockIndex]!;
    const fate = fates.get(owner.message)!;
    if (fate.kind === 'removed') return;
    if (fate.kind === 'kept' || owner.parts.length === 0) {
      written.push(block);
      return;
    }
    const parts = fate.parts.filter(
      (entry) => entry.source?.line === index && entry.source.block === blockIndex,
    );
    for (const { part } of parts) {
      // A part the strategy left as it was (the same object) keeps its block exactly.
      if (owner.parts.length === 1 && source.messages[owner.message]!.content[owner.parts[0]!] === part) {
        written.push(block);
        continue;
      }
      const updated = updatedBlock(block, part);
      if (block.type === 'tool_result' && JSON.stringify(updated) !== JSON.stringify(block))
        resultChanged = true;
      written.push(updated);
    }
  });
  // Parts of a changed message that no block accounts for go after the blocks of its last line.
  for (const fate of new Set(lineFates)) {
    if (fate.kind !== 'changed') continue;
    const unplaced = fate.parts.filter((entry) => entry.source === undefined);
    const owner = owners.find((candidate) => fates.get(candidate.message) === fate)!;
    if (unplaced.length > 0 && Math.max(...source.messageLines[owner.message]!) === index) {
      written.push(...unplaced.map((entry) => partToBlock(entry.part)));
    }
  }
  if (written.length === 0) return undefined;
  const unchanged =
    written.length === blocks.length && written.every((block, position) => block === blocks[position]);
  if (unchanged) return { entry, changed: false, conversation: true };
  const onlyText = written.length === 1 && Object.keys(written[0]!).join() === 'type,text';
  const content = stringContent && onlyText ? written[0]!.text : written;
  const rewritten: Record<string, unknown> = { ...entry, message: { ...message, content } };
  // The full tool output Claude Code shows no longer matches what the model is given.
  if (resultChanged) delete rewritten.toolUseResult;
  return { entry: rewritten, changed: true, conversation: true };
}

function serialize(line: OutputLine, log: SessionSource['log']): string {
  const text = JSON.stringify(line.entry);
  // A CRLF file keeps its line endings.
  const crlf = line.index === undefined ? log.crlf : log.lines[line.index]!.text.endsWith('\r');
  return crlf ? `${text}\r` : text;
}
