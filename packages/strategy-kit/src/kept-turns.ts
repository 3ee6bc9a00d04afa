import {
  type ArchivedItem,
  compactionMetadataOf,
  type Message,
  mergesAheadOfReasoning,
  type TokenCounter,
  type UserMessage,
  withCompactionMetadata,
} from '@compaction/core';
import { archivedChanges } from './archive-changes.js';
import { archiveItem, costliestRecallHint, recallHint } from './archive-item.js';
import { renderArchivedMessages } from './render-archived-messages.js';
import type { TurnPlan } from './turn-plan.js';

/** How {@link assembleKeptTurns} marks the places where messages were removed. */
export interface RemovalMarkerSettings {
  /** Whether to leave a marker message where messages were removed. */
  markers: boolean;
  /**
   * The marker's text for `count` removed messages; with `archive`, `recall` is the recall hint of the
   * removed messages (`recall "<handle>"`), which the text must name.
   */
  text: (count: number, recall?: string) => string;
  round: number;
  strategy: string;
  /**
   * Whether what is removed is archived (`input.archive`): each marker then names the handle of the messages
   * it stands for, and shortened results name theirs. A strategy that archives leaves markers whatever its
   * own marker option says (`markers: marker || archive`): without one, nothing names the removed messages.
   */
  archive?: boolean;
}

/**
 * The marker message for `count` removed messages: a user message marked `kind: 'marker'` with its count
 * (`removedMessages`), so a later compaction merges with it. In the user role it never merges into a model
 * turn (where it would stand ahead of a thinking block the provider requires first), and
 * `latestUserMessageIndex` skips it, so it never becomes the newest user request.
 */
export function removalMarker(count: number, settings: RemovalMarkerSettings, recall?: string): UserMessage {
  return withCompactionMetadata<UserMessage>(
    { role: 'user', content: [{ type: 'text', text: settings.text(count, recall) }] },
    { kind: 'marker', round: settings.round, strategy: settings.strategy, removedMessages: count },
  );
}

/**
 * An upper bound of what one marker costs, so plans leave room for the marker of each gap they open. Counted
 * even without markers: a gap between two assistant messages, the second with reasoning, gets one anyway.
 * With `archive`, counted with the costliest recall hint.
 */
export function removalMarkerCost(counter: TokenCounter, settings: RemovalMarkerSettings): number {
  const recall = settings.archive === true ? costliestRecallHint : undefined;
  return counter.countMessage(removalMarker(9_999_999, settings, recall));
}

/** The archived item of removed messages: their transcript ({@link renderArchivedMessages}). */
export function archivedMessages(messages: readonly Message[]): ArchivedItem {
  const count = messages.length;
  return archiveItem(
    `${count} removed ${count === 1 ? 'message' : 'messages'}`,
    renderArchivedMessages(messages),
  );
}

/** A history assembled from kept turns, and what was removed. */
export interface AssembledHistory {
  messages: Message[];
  removedMessages: number;
  removedTurns: number;
  markers: number;
  /**
   * With `archive`: the removed messages each marker names, and the whole results each shortened result
   * names (see `archivedChanges`). Undefined without.
   */
  archived?: ArchivedItem[];
}

/**
 * Builds a history from the kept turns (`kept[turn] === 1`), in their original order, with one marker per
 * run of removed messages that a kept turn follows; `replacements` gives new messages for kept turns that
 * were shortened. Markers earlier compactions left (by metadata, or by their text once read back from a
 * provider's format) are merged into the run they stand in: one marker with the cumulative count, and an
 * earlier marker whose run lost nothing more is kept as it is. Anthropic's format merges a user message into
 * the user turn next to it, so a marker never stands right after the opening (it would add text to the task):
 * it goes after the first kept model turn, with its tool results; nor right before a user message, unless no
 * model turn follows it. A run no kept turn follows gets none (it would read as a new request); its messages
 * are only counted in `removedMessages`. Without markers, a run still gets one where the messages
 * around it would merge into one model turn ahead of its reasoning (see {@link mergesAheadOfReasoning}),
 * which providers refuse. With `archive`, every new marker names the handle of the messages it stands for
 * ({@link archivedMessages}), and the archived items are returned.
 */
export function assembleKeptTurns(
  messages: readonly Message[],
  plan: TurnPlan,
  kept: Uint8Array,
  settings: RemovalMarkerSettings,
  replacements: ReadonlyMap<number, readonly Message[]> = new Map(),
): AssembledHistory {
  const archive = settings.archive === true;
  const result: Message[] = [];
  const archived: ArchivedItem[] = [];
  // The run waiting for its marker: what it removed, the earlier markers in it, all of them in their order,
  // and the count it stands for.
  let run: Run | undefined;
  let removedMessages = 0;
  let removedTurns = 0;
  let markers = 0;
  // Where the marker of a run followed by a user turn would have gone.
  let deferredAt: number | undefined;
  // Whether a model message is in the result yet: before one, the result is the opening.
  let modelTurnKept = false;
  plan.turns.forEach((turn, turnIndex) => {
    const earlier = earlierMarkerCount(messages, turn);
    if (kept[turnIndex] !== 1 || earlier !== undefined) {
      run ??= { removed: [], earlier: [], all: [], count: 0 };
      run.all.push(...messages.slice(turn.start, turn.end));
      if (earlier === undefined) {
        run.removed.push(...messages.slice(turn.start, turn.end));
        removedMessages += turn.end - turn.start;
        removedTurns++;
      } else run.earlier.push(messages[turn.start]!);
      run.count += earlier ?? turn.end - turn.start;
      return;
    }
    const original = messages.slice(turn.start, turn.end);
    const turnMessages = replacements.get(turnIndex) ?? original;
    // An earlier marker whose run lost nothing more stays where it stands. Otherwise, right after the opening a
    // marker would join the task's message: it goes after this turn at the earliest.
    const unchanged = run !== undefined && run.removed.length === 0 && run.earlier.length === 1;
    if (run !== undefined && !unchanged && modelTurnKept && turnMessages[0]?.role === 'user')
      deferredAt ??= result.length;
    else if (run !== undefined && (unchanged || modelTurnKept)) {
      placeMarker(run, result.length, turnMessages[0]);
      run = undefined;
      deferredAt = undefined;
    }
    if (archive && turnMessages !== original) archived.push(...archivedChanges(original, turnMessages));
    for (const message of turnMessages) {
      result.push(message);
      if (message.role === 'assistant') modelTurnKept = true;
    }
  });
  // A run that only user turns follow gets its marker before them after all (never inside the opening).
  if (run !== undefined && deferredAt !== undefined) placeMarker(run, deferredAt);
  else removedMessages += run?.earlier.length ?? 0;
  return { messages: result, removedMessages, removedTurns, markers, ...(archive ? { archived } : {}) };

  /** Puts the marker of a run, if it gets one, at `position` of the result. */
  function placeMarker(pending: Run, position: number, next = result[position]) {
    const marker = runMarker(pending, result[position - 1], next);
    if (marker === undefined) return;
    result.splice(position, 0, marker);
    markers++;
  }

  /** The marker of a run, placed between `previous` and `next`, or undefined when it gets none. */
  function runMarker(
    pending: Run,
    previous: Message | undefined,
    next: Message | undefined,
  ): Message | undefined {
    // An earlier marker whose run lost nothing more stays as it was, so the request's prefix does too.
    if (pending.removed.length === 0 && pending.earlier.length === 1) return pending.earlier[0];
    removedMessages += pending.earlier.length;
    if (!settings.markers && !mergesAheadOfReasoning(previous, next)) return undefined;
    const item = archive ? archivedMessages(pending.all) : undefined;
    if (item !== undefined) archived.push(item);
    return removalMarker(pending.count, settings, item === undefined ? undefined : recallHint(item));
  }
}

/** A run of removed messages and earlier markers waiting for its marker. */
interface Run {
  removed: Message[];
  earlier: Message[];
  all: Message[];
  count: number;
}

/**
 * The count of an earlier compaction's marker when `turn` is one (`metadata.compaction.kind: 'marker'`, its
 * `removedMessages`, 0 when it does not say), or undefined.
 */
function earlierMarkerCount(
  messages: readonly Message[],
  turn: { start: number; end: number },
): number | undefined {
  if (turn.end - turn.start !== 1) return undefined;
  const marks = compactionMetadataOf(messages[turn.start]!);
  if (marks?.kind !== 'marker') return undefined;
  return typeof marks.removedMessages === 'number' ? marks.removedMessages : 0;
}
