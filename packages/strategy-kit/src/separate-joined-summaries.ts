import { compactionMetadataOf, type Message, openingIndexes, withCompactionMetadata } from '@compaction/core';
import { isSummaryPart } from './is-summary.js';

/**
 * The history with every earlier summary that a provider's format joined with other parts of the same role
 * (see {@link isSummaryPart}) made a message of its own again, so a compaction finds it, merges it and replaces
 * it, instead of keeping it inside a turn next to a new summary. The parts around it stay in their order, in
 * messages of the same role, marked `kind: 'modified'`; the original message's metadata goes to the first of
 * them, the message that is written back. The opening (core's `openingIndexes`) is left as it is: it is kept as
 * the client sent it. Returns `messages` itself when no message holds a joined summary; the input is not
 * changed.
 */
export function separateJoinedSummaries(messages: readonly Message[]): readonly Message[] {
  let separated: Message[] | undefined;
  // The opening is kept as the client sent it, whatever it holds.
  const opening = new Set(openingIndexes(messages));
  messages.forEach((message, index) => {
    const pieces = opening.has(index) ? undefined : piecesOf(message);
    if (pieces === undefined) {
      separated?.push(message);
      return;
    }
    separated ??= messages.slice(0, index);
    separated.push(...pieces);
  });
  return separated ?? messages;
}

/** The messages one message splits into, or `undefined` when it holds no joined summary. */
function piecesOf(message: Message): Message[] | undefined {
  // A message marked by a compaction is already what its marks say; a single part is recognised as it is.
  if (message.content.length < 2 || compactionMetadataOf(message) !== undefined) return undefined;
  if (
    (message.role !== 'user' && message.role !== 'assistant') ||
    !message.content.some((part) => isSummaryPart(message, part))
  ) {
    return undefined;
  }
  const groups: Array<{ summary: boolean; parts: Message['content'] }> = [];
  for (const part of message.content) {
    const summary = isSummaryPart(message, part);
    const last = groups.at(-1);
    if (last !== undefined && !summary && !last.summary) last.parts.push(part as never);
    else groups.push({ summary, parts: [part] as Message['content'] });
  }
  const keeper = groups.find((group) => !group.summary);
  return groups.map((group) => {
    if (group.summary) return { role: message.role, content: group.parts } as Message;
    const piece = {
      role: message.role,
      content: group.parts,
      ...(group === keeper && message.metadata !== undefined ? { metadata: message.metadata } : {}),
    } as Message;
    // Not the message the input held: marked as changed, as every message a strategy changes is.
    return withCompactionMetadata(piece, { kind: 'modified' });
  });
}
