import { compactionMetadataOf, type Message, type ToolCallPart, type ToolResultPart } from '@compaction/core';
import { recallHandlesIn, renderArchivedMessages, toolResultText } from '@compaction/strategy-kit';

/**
 * What each recall handle that `after` newly names must give back, from `before` (the history the strategy
 * compacted) alone: a shortened or cleared tool result, its original text; a tool call's cleared input, the
 * input as JSON; a removal marker, the transcript of the messages missing before the kept message after it
 * (since the previous marker; a marker may stand after the kept turn its run came before); a
 * summary, the transcript of every message it replaced (those of `before` missing from `after`, less the
 * ones kept in a changed form). Handles `before` already named are left out. Throws when a new or changed
 * message names a handle whose text this cannot tell, so a test that checks every entry checks every handle.
 */
export function expectedRecalls(before: readonly Message[], after: readonly Message[]): Map<string, string> {
  const expected = new Map<string, string>();
  const known = new Set(recallHandlesIn(renderArchivedMessages(before)));
  const kept = new Set(before);
  const positions = new Map(before.map((message, index) => [message, index]));
  const results = new Map<string, ToolResultPart>();
  const calls = new Map<string, ToolCallPart>();
  for (const message of before) {
    for (const part of message.content) {
      if (part.type === 'tool-result') results.set(part.toolCallId, part);
      if (part.type === 'tool-call') calls.set(part.toolCallId, part);
    }
  }
  const expect = (text: string, handles: readonly string[]) => {
    for (const handle of handles) if (!known.has(handle)) expected.set(handle, text);
  };
  const changedIds = new Set(after.flatMap((other) => (kept.has(other) ? [] : callIdsOf(other))));
  const missing = (candidate: Message) =>
    !after.includes(candidate) && !callIdsOf(candidate).some((id) => changedIds.has(id));
  // Where the span of the next marker starts: after the span of the previous one.
  let spanStart = 0;
  after.forEach((message, index) => {
    if (kept.has(message)) return;
    const kind = compactionMetadataOf(message)?.kind;
    if (kind === 'marker') {
      const next = after.slice(index + 1).find((candidate) => kept.has(candidate));
      const end = next === undefined ? before.length : positions.get(next)!;
      expect(
        renderArchivedMessages(before.slice(spanStart, end).filter(missing)),
        recallHandlesIn(renderArchivedMessages([message])),
      );
      spanStart = end;
    } else if (kind === 'summary') {
      const replaced = before.filter(
        (candidate) => !after.includes(candidate) && !callIdsOf(candidate).some((id) => changedIds.has(id)),
      );
      expect(renderArchivedMessages(replaced), recallHandlesIn(renderArchivedMessages([message])));
    } else {
      for (const part of message.content) {
        if (part.type === 'tool-result') {
          const original = results.get(part.toolCallId);
          if (original !== undefined && original !== part) {
            expect(toolResultText(original), recallHandlesIn(toolResultText(part)));
          }
        } else if (part.type === 'tool-call') {
          const original = calls.get(part.toolCallId);
          if (original !== undefined && original !== part) {
            expect(JSON.stringify(original.input), recallHandlesIn(JSON.stringify(part.input)));
          }
        }
      }
    }
    for (const handle of recallHandlesIn(renderArchivedMessages([message]))) {
      if (!known.has(handle) && !expected.has(handle)) {
        throw new Error(`message ${index} names recall "${handle}", and what it stands for is unknown`);
      }
    }
  });
  return expected;
}

/** The ids of the tool calls and results in a message. */
function callIdsOf(message: Message): string[] {
  return message.content.flatMap((part) =>
    part.type === 'tool-call' || part.type === 'tool-result' ? [part.toolCallId] : [],
  );
}
