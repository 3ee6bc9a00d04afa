import { InvalidMessagesError, type MessageIssue } from '../errors/invalid-messages-error.js';
import { withCompactionMetadata } from '../messages/compaction-metadata.js';
import type { Message, ToolCallPart, ToolMessage, ToolResultPart } from '../messages/message.js';
import { toolCallsOf } from '../messages/message-content.js';
import { pairingIssues, pairingIssueTexts } from '../messages/tool-pairing.js';
import { validateMessages } from '../messages/validate-messages.js';
import type { Repair, RepairOptions, RepairResult } from './repair.js';

/** Text of the result inserted for a call that has none. */
export const missingResultText = '[No result was recorded for this tool call.]';

/**
 * Makes a history valid for providers without losing content: results found later are moved back right after
 * their call; calls with no result get a placeholder error result; results with no call and duplicates are
 * dropped (or reported, see {@link RepairOptions}); a reused call id is renamed `<id>#<n>` with its results.
 * Unchanged messages are returned as the same objects; changed and inserted ones are marked with
 * `metadata.compaction.repair`. Throws {@link InvalidMessagesError} for malformed messages.
 */
export function repairHistory(input: readonly Message[], options: RepairOptions = {}): RepairResult {
  validateMessages(input);
  // Most histories need nothing: a pass that stops at the first problem says so, without the repair's lookups.
  if (needsNoRepair(input)) return { messages: [...input], repairs: [] };
  return repairToolPairing(input, options);
}

/** Whether a well-formed history is one {@link repairHistory} would return unchanged. */
export function needsNoRepair(messages: readonly Message[]): boolean {
  return pairingIssues(messages, { first: true }).length === 0;
}

/**
 * Throws {@link InvalidMessagesError} unless `messages` is a well-formed history that needs no repair
 * (calls in the last turn may still wait for results). Strategies call it first so that malformed input gets
 * a typed error, never a crash.
 */
export function assertValidHistory(messages: unknown): asserts messages is Message[] {
  validateMessages(messages);
  const issues = pairingIssues(messages).map(({ kind, toolCallId, index }) => ({
    index,
    path: 'content',
    message: `${pairingIssueTexts[kind](toolCallId)}; run repairHistory first`,
  }));
  if (issues.length > 0) throw new InvalidMessagesError({ issues });
}

/**
 * The whole repair pass of {@link repairHistory}, for histories that need one: it builds every lookup
 * whatever it finds. Expects messages that passed `validateMessages`.
 */
export function repairToolPairing(input: readonly Message[], options: RepairOptions = {}): RepairResult {
  const repairs: Repair[] = [];
  const messages = renameDuplicateCalls(input, repairs);
  const callIds = new Set(messages.flatMap((message) => toolCallsOf(message).map((call) => call.toolCallId)));
  // The first result for each call wherever it stands; later ones are duplicates.
  const firstResult = new Map<string, { part: ToolResultPart; index: number }>();
  const orphans: MessageIssue[] = [];
  messages.forEach((message, index) => {
    if (message.role !== 'tool') return;
    for (const part of message.content) {
      if (!firstResult.has(part.toolCallId)) firstResult.set(part.toolCallId, { part, index });
      if (!callIds.has(part.toolCallId) && options.orphanedResults === 'error') {
        const message = `tool result "${part.toolCallId}" answers no tool call`;
        orphans.push({ index, path: 'content', message });
      }
    }
  });
  if (orphans.length > 0) throw new InvalidMessagesError({ issues: orphans });

  const output: Message[] = [];
  const emitted = new Set<string>();
  let open: { calls: ToolCallPart[]; index: number } | undefined;
  const closeTurn = (isLastTurn: boolean) => {
    if (open === undefined) return;
    const added: ToolResultPart[] = [];
    for (const call of open.calls) {
      const id = call.toolCallId;
      if (emitted.has(id)) continue;
      const later = firstResult.get(id);
      if (later !== undefined) {
        added.push(later.part);
        repairs.push({ kind: 'moved-result', toolCallId: id, index: later.index });
      } else if (!isLastTurn) {
        if (options.missingResults === 'error') {
          const message = `tool call "${id}" has no result`;
          throw new InvalidMessagesError({ issues: [{ index: open.index, path: 'content', message }] });
        }
        const { toolName } = call;
        added.push({
          type: 'tool-result',
          toolCallId: id,
          toolName,
          output: missingResultText,
          isError: true,
        });
        repairs.push({ kind: 'placeholder-result', toolCallId: id, index: open.index });
      }
    }
    for (const part of added) emitted.add(part.toolCallId);
    if (added.length > 0) {
      const placeholders = added.every((part) => part.output === missingResultText);
      const repair = placeholders ? 'placeholder-result' : 'moved-result';
      output.push(withCompactionMetadata({ role: 'tool', content: added } satisfies ToolMessage, { repair }));
    }
    open = undefined;
  };

  messages.forEach((message, index) => {
    if (message.role !== 'tool') {
      closeTurn(false);
      output.push(message);
      const calls = toolCallsOf(message);
      if (calls.length > 0) open = { calls, index };
      return;
    }
    const kept = message.content.filter((part) => {
      const id = part.toolCallId;
      const first = firstResult.get(id);
      if (!callIds.has(id)) {
        repairs.push({ kind: 'removed-orphaned-result', toolCallId: id, index });
        return false;
      }
      if (emitted.has(id)) {
        // Either a true duplicate or a result that was already moved back to its call.
        if (first?.part !== part) repairs.push({ kind: 'removed-duplicate-result', toolCallId: id, index });
        return false;
      }
      // A result that does not answer the open turn belongs to a call made later: it is moved there when
      // that call's turn closes.
      if (open === undefined || !open.calls.some((call) => call.toolCallId === id)) return false;
      // An earlier result for this call stood where no turn was waiting for it: it is dropped for this one.
      if (first !== undefined && first.part !== part) {
        repairs.push({ kind: 'removed-duplicate-result', toolCallId: id, index: first.index });
      }
      emitted.add(id);
      return true;
    });
    if (kept.length === message.content.length) output.push(message);
    else if (kept.length > 0) output.push(withCompactionMetadata(message, { repair: 'edited' }, kept));
  });
  closeTurn(true);
  return { messages: output, repairs };
}

/**
 * Renames a call reusing an earlier call's id `<id>#<n>`, with the results after it that carry that id, so
 * each result answers the nearest call before it. Recorded runs reuse ids; providers reject repeated ones.
 */
function renameDuplicateCalls(messages: readonly Message[], repairs: Repair[]): Message[] {
  const uses = new Map<string, number>();
  const aliases = new Map<string, string>();
  return messages.map((message, index) => {
    let changed = false;
    const rename = <P extends { toolCallId: string }>(part: P): P => {
      const toolCallId = aliases.get(part.toolCallId);
      if (toolCallId === undefined) return part;
      changed = true;
      return { ...part, toolCallId };
    };
    let content: Message['content'] = message.content;
    if (message.role === 'assistant') {
      content = message.content.map((part) => {
        if (part.type !== 'tool-call') return part;
        const count = (uses.get(part.toolCallId) ?? 0) + 1;
        uses.set(part.toolCallId, count);
        if (count === 1) return part;
        aliases.set(part.toolCallId, `${part.toolCallId}#${count}`);
        repairs.push({ kind: 'renamed-duplicate-call', toolCallId: part.toolCallId, index });
        return rename(part);
      });
    } else if (message.role === 'tool') content = message.content.map(rename);
    return changed ? withCompactionMetadata(message, { repair: 'edited' }, content) : message;
  });
}
