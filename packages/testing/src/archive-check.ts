import type { ArchivedItem, CompactionOutput, Message, ToolResultPart } from '@compaction/core';
import { recallHandlesIn, renderArchivedMessages, toolResultText } from '@compaction/strategy-kit';

/** What a handle may be, as core's `archive-valid` rule has it. */
const handleShape = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * How a strategy's output, compacted with `archive`, fails to keep what it removed within reach; undefined
 * when it does not. The items must be valid (a handle of core's shape, a label and a text, one text per
 * handle); every recall handle named in a new or changed message must be among them (handles the input
 * already named were archived before, and are exempt); and a handle that a changed tool result newly names
 * must hold that result's original text (see `toolResultText`).
 */
export function archiveProblem(input: readonly Message[], output: CompactionOutput): string | undefined {
  const archived = output.archived ?? [];
  if (!Array.isArray(archived)) return '`archived` is not a list';
  const texts = new Map<string, string>();
  for (const [index, item] of (archived as unknown[]).entries()) {
    if (!isArchivedItem(item))
      return `archived item ${index} needs a handle (${handleShape.source}), label and text`;
    if ((texts.get(item.handle) ?? item.text) !== item.text) return `handle "${item.handle}" names two texts`;
    texts.set(item.handle, item.text);
  }
  const inputMessages = new Set(input);
  const known = new Set(recallHandlesIn(renderArchivedMessages(input)));
  const originalResults = new Map<string, ToolResultPart>();
  for (const message of input) {
    if (message.role === 'tool')
      for (const part of message.content) originalResults.set(part.toolCallId, part);
  }
  for (const message of output.messages) {
    if (inputMessages.has(message)) continue;
    for (const handle of recallHandlesIn(renderArchivedMessages([message]))) {
      if (!known.has(handle) && !texts.has(handle)) return `names recall "${handle}" but did not archive it`;
    }
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      const original = originalResults.get(part.toolCallId);
      if (original === undefined || original === part) continue;
      const before = new Set(recallHandlesIn(toolResultText(original)));
      for (const handle of recallHandlesIn(toolResultText(part))) {
        if (before.has(handle) || known.has(handle)) continue;
        if (texts.get(handle) !== toolResultText(original)) {
          return `the ${part.toolName} result ${part.toolCallId} names recall "${handle}", which does not hold its original text`;
        }
      }
    }
  }
  return undefined;
}

function isArchivedItem(item: unknown): item is ArchivedItem {
  if (typeof item !== 'object' || item === null) return false;
  const { handle, label, text } = item as Record<string, unknown>;
  return (
    typeof handle === 'string' &&
    handleShape.test(handle) &&
    typeof label === 'string' &&
    typeof text === 'string'
  );
}
