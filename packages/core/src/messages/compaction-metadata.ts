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
}

/** Reads Compaction's marks from a message, if any. */
export function compactionMetadataOf(message: Message): CompactionMetadata | undefined {
  const value = message.metadata?.compaction;
  return isRecord(value) ? (value as CompactionMetadata) : undefined;
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
