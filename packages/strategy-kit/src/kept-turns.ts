import {
  type ArchivedItem,
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
 * The marker message for `count` removed messages: a user message marked `kind: 'marker'`. In the user role
 * it never merges into a model turn (where it would stand ahead of a thinking block the provider requires
 * first); after tool results it joins their user turn, and `latestUserMessageIndex` skips it, so it never becomes
 * the newest user request.
 */
export function removalMarker(count: number, settings: RemovalMarkerSettings, recall?: string): UserMessage {
  return withCompactionMetadata<UserMessage>(
    { role: 'user', content: [{ type: 'text', text: settings.text(count, recall) }] },
    { kind: 'marker', round: settings.round, strategy: settings.strategy },
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
 * were shortened. Markers are user messages, so one may open the conversation; none ends it (it would read
 * as a new request), so removed messages after the last kept turn are only counted in `removedMessages`.
 * Without markers, a gap still gets one where the messages around it would merge into one model turn ahead
 * of its reasoning (see {@link mergesAheadOfReasoning}), which providers refuse. With `archive`, every
 * marker names the handle of the messages it stands for ({@link archivedMessages}), and the archived items
 * are returned.
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
  // Where the current run of removed messages starts, when there is one.
  let pendingStart = -1;
  let removedMessages = 0;
  let removedTurns = 0;
  let markers = 0;
  plan.turns.forEach((turn, turnIndex) => {
    if (kept[turnIndex] !== 1) {
      if (pendingStart === -1) pendingStart = turn.start;
      removedMessages += turn.end - turn.start;
      removedTurns++;
      return;
    }
    const original = messages.slice(turn.start, turn.end);
    const turnMessages = replacements.get(turnIndex) ?? original;
    if (
      pendingStart !== -1 &&
      (settings.markers || mergesAheadOfReasoning(result[result.length - 1], turnMessages[0]))
    ) {
      const removed = messages.slice(pendingStart, turn.start);
      const item = archive ? archivedMessages(removed) : undefined;
      if (item !== undefined) archived.push(item);
      result.push(removalMarker(removed.length, settings, item === undefined ? undefined : recallHint(item)));
      markers++;
    }
    pendingStart = -1;
    if (archive && turnMessages !== original) archived.push(...archivedChanges(original, turnMessages));
    for (const message of turnMessages) result.push(message);
  });
  return { messages: result, removedMessages, removedTurns, markers, ...(archive ? { archived } : {}) };
}
