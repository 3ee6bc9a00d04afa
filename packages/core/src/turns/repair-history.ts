import { InvalidMessagesError, type MessageIssue } from '../errors/invalid-messages-error.js';
import { withCompactionMetadata } from '../messages/compaction-metadata.js';
import type { Message, ToolCallPart, ToolMessage, ToolResultPart } from '../messages/message.js';
import { toolCallsOf } from '../messages/message-content.js';
import { validateMessages } from '../messages/validate-messages.js';
import { needsNoRepair } from './needs-no-repair.js';
import { renameDuplicateCalls } from './rename-duplicate-calls.js';

/** What {@link repairHistory} does with damage it finds. */
export interface RepairOptions {
  /**
   * A tool result whose call is nowhere in the history: `remove` drops it (default), `error` throws
   * {@link InvalidMessagesError}.
   */
  orphanedResults?: 'remove' | 'error';
  /**
   * A tool call with no result before the next non-tool message: `placeholder` inserts an error result
   * saying none was recorded (default), `error` throws. A call in the last turn of the history is left alone:
   * its tool may still be running.
   */
  missingResults?: 'placeholder' | 'error';
}

/** One change {@link repairHistory} made. */
export interface Repair {
  kind:
    | 'placeholder-result'
    | 'moved-result'
    | 'removed-orphaned-result'
    | 'removed-duplicate-result'
    | 'renamed-duplicate-call';
  toolCallId: string;
  /** Index, in the input, of the message the change concerns. */
  index: number;
}

/** The repaired history and what was changed. */
export interface RepairResult {
  messages: Message[];
  repairs: Repair[];
}

/** Text of the result inserted for a call that has none. */
export const missingResultText = '[No result was recorded for this tool call.]';

/**
 * Makes a history valid for providers without losing content: every tool result ends up right after the
 * assistant message that made the call. Results found later in the history are moved back to their call;
 * calls with no result anywhere get a placeholder error result; results with no call and duplicate results
 * are dropped (or reported, see {@link RepairOptions}); a call id used again by a later call is renamed
 * `<id>#<n>` together with the results that answer it. Messages that need no change are returned as the same
 * objects; changed and inserted messages are marked with `metadata.compaction.repair`.
 * Throws {@link InvalidMessagesError} for malformed messages.
 */
export function repairHistory(input: readonly Message[], options: RepairOptions = {}): RepairResult {
  validateMessages(input);
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

/**
 * Throws {@link InvalidMessagesError} unless `messages` is a well-formed history that needs no repair
 * (every tool result right after its call, no orphans, no duplicates; calls in the last turn may still wait
 * for results). Strategies call it first so that malformed input gets a typed error, never a crash.
 */
export function assertValidHistory(messages: readonly Message[]): void {
  validateMessages(messages);
  // The common case, a valid history, is confirmed in one pass; only damage pays for a full repair run
  // that describes it.
  if (needsNoRepair(messages)) return;
  const { repairs } = repairHistory(messages, { orphanedResults: 'error', missingResults: 'error' });
  if (repairs.length > 0) {
    throw new InvalidMessagesError({
      issues: repairs.map((repair) => ({
        index: repair.index,
        path: 'content',
        message: `tool result "${repair.toolCallId}" is out of place (${repair.kind}); run repairHistory first`,
      })),
    });
  }
}
