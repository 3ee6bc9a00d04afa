import type { CompactionOutput, Message, ToolResultPart } from '@compaction/core';
import { recallHandlesIn, renderArchivedMessages, toolResultText } from '@compaction/strategy-kit';

/**
 * How a strategy's output, compacted with `archive`, fails to keep what it removed within reach; undefined
 * when it does not. The items themselves are core's to check (the `archive-valid` rule of
 * `verifyCompaction`): here every recall handle named in a new or changed message must be among them (handles
 * the input already named were archived before, and are exempt); and a handle that a changed tool result newly
 * names must hold that result's original text (see `toolResultText`).
 */
export function archiveProblem(input: readonly Message[], output: CompactionOutput): string | undefined {
  const texts = new Map((output.archived ?? []).map((item) => [item.handle, item.text]));
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
