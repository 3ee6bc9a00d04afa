import { isRecord, type JSONObject } from '../json.js';
import type { Message, Metadata } from './message.js';

/**
 * What a message a strategy created or modified is, under `metadata.compaction.kind`: summaries and markers
 * are found by metadata, never by text.
 */
export type CompactionMessageKind = 'summary' | 'marker' | 'modified';

/** Compaction's own marks, kept under `metadata.compaction`. */
export interface CompactionMetadata extends JSONObject {
  /** Pinned messages are kept verbatim by every strategy. */
  pinned?: boolean;
  /**
   * Who set `pinned` when compaction did, not the user: `plan` for the agent's latest plan or todo state
   * (`pinPlanState` of `@compaction/core/working-state`), which is unpinned again once a newer plan replaces
   * it. A pin without this mark is the user's own and is never taken back.
   */
  pinnedBy?: string;
  /** Set on messages a strategy created or changed. */
  kind?: CompactionMessageKind;
  /** The compaction round that produced the message (1 for the first compaction of a session). */
  round?: number;
  /** The strategy that produced the message. */
  strategy?: string;
  /** Set by `repairHistory` on messages it inserted or edited. */
  repair?: 'placeholder-result' | 'moved-result' | 'edited';
  /**
   * Set by a converter on a message the provider accepts only together with the turn before it (one model
   * turn split over several messages, such as an Anthropic server tool result): turn grouping keeps it there.
   */
  joinsPrevious?: boolean;
  /** On a removal marker: how many messages of the conversation it stands for. */
  removedMessages?: number;
  /** On what a provider's own compaction returned (the `native` strategy): the provider's name. */
  provider?: string;
}

/** The text of a removal marker (`[3 earlier messages skipped ...]`), known without metadata. */
const removalMarkerText = /^\[(\d+) earlier messages? (?:skipped|removed)\b[^\n]*\]$/;
/** The first line of a summary (`[Summary of 12 earlier messages, compaction round 2; ...]`). */
const summaryText = /^\[Summary of (\d+) earlier messages?, compaction round (\d+)\b/;

/**
 * Reads Compaction's marks from a message, if any. A provider's format has no room for them, so a compacted
 * request read back holds its markers and summaries as plain messages: one whose only part is a marker's text,
 * or starts with a summary's first line, reads as what it is, so the next compaction merges with it.
 */
export function compactionMetadataOf(message: Message): CompactionMetadata | undefined {
  const value = message.metadata?.compaction;
  if (isRecord(value)) return value as CompactionMetadata;
  // Unvalidated input may hold anything: only a well-formed single text part is read.
  const part =
    Array.isArray(message.content) && message.content.length === 1 ? message.content[0] : undefined;
  if (part?.type !== 'text' || typeof part.text !== 'string' || !['user', 'assistant'].includes(message.role))
    return undefined;
  const marker = message.role === 'user' ? removalMarkerText.exec(part.text) : null;
  if (marker !== null) return { kind: 'marker', removedMessages: Number(marker[1]) };
  const summary = summaryText.exec(part.text);
  if (summary === null) return undefined;
  return { kind: 'summary', round: Number(summary[2]), summarizedMessages: Number(summary[1]) };
}

/** Whether a message is pinned (kept verbatim by every strategy). */
export function isPinned(message: Message): boolean {
  return compactionMetadataOf(message)?.pinned === true;
}

/** Whether a strategy created or changed this message (summary, marker or modified original). */
export function isCompactionProduct(message: Message): boolean {
  return compactionMetadataOf(message)?.kind !== undefined;
}

/**
 * A copy of `message` with `marks` merged into its compaction marks and, when given, `content` in place of
 * its own. To pin a message: `withCompactionMetadata(message, { pinned: true })`.
 */
export function withCompactionMetadata<M extends Message>(
  message: M,
  marks: CompactionMetadata,
  content: M['content'] = message.content,
): M {
  const compaction: CompactionMetadata = { ...compactionMetadataOf(message), ...marks };
  // Keys listed before the spread: V8 fills keys a literal already has quickly, but adding one after a spread
  // takes a slow path (tens of times slower), and a strategy may mark thousands of messages in one run.
  const metadata: Metadata = { compaction, ...message.metadata };
  metadata.compaction = compaction;
  const copy = { role: message.role, content, metadata, ...(message as object) } as M;
  copy.content = content;
  copy.metadata = metadata;
  return copy;
}
