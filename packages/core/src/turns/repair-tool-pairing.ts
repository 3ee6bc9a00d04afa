import { InvalidMessagesError, type MessageIssue } from '../errors/invalid-messages-error.js';
import { withCompactionMetadata } from '../messages/compaction-metadata.js';
import type { Message, ToolCallPart, ToolMessage, ToolResultPart } from '../messages/message.js';
import { toolCallsOf } from '../messages/message-content.js';
import { renameDuplicateCalls } from './rename-duplicate-calls.js';
import type { Repair, RepairOptions, RepairResult } from './repair.js';

/** Text of the result inserted for a call that has none. */
export const missingResultText = '[No result was recorded for this tool call.]';

/**
 * The whole repair pass of `repairHistory`, for histories that need one: it walks every message and builds
 * the lookups it needs whatever it finds. Expects messages that passed `validateMessages`.
 */
export function repairToolPairing(input: readonly Message[], options: RepairOptions = {}): RepairResult {
  const repairs: Repair[] = [];
  const messages = renameDuplicateCalls(input, repairs);
  const orphanedResults = options.orphanedResults ?? 'remove';
  const missingResults = options.missingResults ?? 'placeholder';

  const callIndex = new Map<string, number>();
  const issues: MessageIssue[] = [];
  messages.forEach((message, index) => {
    for (const call of toolCallsOf(message)) callIndex.set(call.toolCallId, index);
  });
  // The first result for each call wherever it stands; later ones are duplicates.
  const firstResult = new Map<string, { part: ToolResultPart; index: number }>();
  messages.forEach((message, index) => {
    if (message.role !== 'tool') return;
    for (const part of message.content) {
      if (!firstResult.has(part.toolCallId)) firstResult.set(part.toolCallId, { part, index });
      if (!callIndex.has(part.toolCallId) && orphanedResults === 'error') {
        issues.push({
          index,
          path: 'content',
          message: `tool result "${part.toolCallId}" answers no tool call`,
        });
      }
    }
  });
  if (issues.length > 0) throw new InvalidMessagesError({ issues });

  const output: Message[] = [];
  const emitted = new Set<string>();
  let open: { calls: ToolCallPart[]; index: number } | undefined;

  const closeTurn = (isLastTurn: boolean) => {
    if (open === undefined) return;
    const added: ToolResultPart[] = [];
    for (const call of open.calls) {
      if (emitted.has(call.toolCallId)) continue;
      const later = firstResult.get(call.toolCallId);
      if (later !== undefined) {
        added.push(later.part);
        repairs.push({ kind: 'moved-result', toolCallId: call.toolCallId, index: later.index });
      } else if (!isLastTurn) {
        if (missingResults === 'error') {
          throw new InvalidMessagesError({
            issues: [
              { index: open.index, path: 'content', message: `tool call "${call.toolCallId}" has no result` },
            ],
          });
        }
        added.push(placeholderResult(call));
        repairs.push({ kind: 'placeholder-result', toolCallId: call.toolCallId, index: open.index });
      }
    }
    for (const part of added) emitted.add(part.toolCallId);
    if (added.length > 0) {
      const kind = added.every((part) => part.output === missingResultText)
        ? 'placeholder-result'
        : 'moved-result';
      output.push(
        withCompactionMetadata({ role: 'tool', content: added } satisfies ToolMessage, { repair: kind }),
      );
    }
    open = undefined;
  };

  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      const kept = message.content.filter((part) => {
        const callAt = callIndex.get(part.toolCallId);
        if (callAt === undefined) {
          repairs.push({ kind: 'removed-orphaned-result', toolCallId: part.toolCallId, index });
          return false;
        }
        if (emitted.has(part.toolCallId)) {
          // Either a true duplicate or a result that was already moved back to its call.
          if (firstResult.get(part.toolCallId)?.part !== part) {
            repairs.push({ kind: 'removed-duplicate-result', toolCallId: part.toolCallId, index });
          }
          return false;
        }
        // A result that does not answer the open turn belongs to a call made later: it is moved there when
        // that call's turn closes.
        if (open === undefined || !open.calls.some((call) => call.toolCallId === part.toolCallId))
          return false;
        // An earlier result for this call stood where no turn was waiting for it: it is dropped for this one.
        const first = firstResult.get(part.toolCallId);
        if (first !== undefined && first.part !== part) {
          repairs.push({ kind: 'removed-duplicate-result', toolCallId: part.toolCallId, index: first.index });
        }
        emitted.add(part.toolCallId);
        return true;
      });
      if (kept.length === message.content.length) output.push(message);
      else if (kept.length > 0) output.push(withCompactionMetadata(message, { repair: 'edited' }, kept));
      return;
    }
    closeTurn(false);
    output.push(message);
    const calls = toolCallsOf(message);
    if (calls.length > 0) open = { calls, index };
  });
  closeTurn(true);

  return { messages: output, repairs };
}

function placeholderResult(call: ToolCallPart): ToolResultPart {
  return {
    type: 'tool-result',
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    output: missingResultText,
    isError: true,
  };
}
