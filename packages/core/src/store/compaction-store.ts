import type { CompactionEvent } from '../compactor/compaction-event.js';
import type { JSONObject } from '../json.js';
import type { Message } from '../messages/message.js';
import type { ArchivedItem } from '../specs/compaction-strategy-v1.js';

/**
 * A compaction event with the messages it removed, so no history is ever lost. A summary message points
 * back to the record it came from through its `metadata.compaction.round` and the session.
 */
export interface CompactionRecord {
  event: CompactionEvent;
  /** Messages of the input that are not in the result, in their original order. */
  removedMessages: Message[];
  /** What the compaction archived for the `recall` tool, by handle (with the Compactor's `archive`). */
  archived?: ArchivedItem[];
}

/** What a session holds and when it was last written: what a retention sweep decides by. */
export interface SessionUsage {
  sessionId: string;
  /** The time of its newest append or metadata update, as an ISO 8601 string. */
  lastActivityAt: string;
  /** Bytes of its records (removed messages and archived text included) and metadata as stored. */
  bytes: number;
}

/** What to look for among a store's archived items. */
export interface ArchiveSearchQuery {
  /**
   * Words, all of which must appear (any order, any case), and/or phrases in double quotes, which must appear
   * with their inner white space as typed (a line copied from a tool's output finds that line). A word or phrase
   * matches anywhere in an item's text, also inside a longer word (`config` finds `parseConfig`), so text in
   * scripts written without spaces (Chinese, Japanese) is found by any part of it.
   */
  text: string;
  /** Only this session's items. Without it, every session's. */
  sessionId?: string;
  /** At most this many hits; default 10, at most 100. */
  limit?: number;
}

/** One archived item that matched. */
export interface ArchiveSearchHit {
  /** The session whose record archived it. */
  sessionId: string;
  /** The handle `recall` takes. */
  handle: string;
  /** The item's label (`bash output`, `turns 3-7`). */
  label: string;
  /** The compaction round (event.round) of the record that archived it. */
  round: number;
  /** When that record was written (its event's time), ISO 8601. */
  archivedAt: string;
  /** Up to about 200 characters of the item around the first match, matched words marked as **word**. */
  snippet: string;
}

/**
 * Where the Compactor records compactions, and where applications keep per-session metadata. Methods marked
 * optional were added after the first version: a store without them still works, but a server on it cannot
 * delete sessions' content or keep a retention limit.
 */
export interface CompactionStore {
  /** Appends a record to its session. Safe to call concurrently, also for the same session. */
  append(record: CompactionRecord): Promise<void>;
  /** The records of a session in the order they were appended (oldest first); empty for an unknown session. */
  list(sessionId: string): Promise<CompactionRecord[]>;
  /** The sessions that have records or metadata, sorted. */
  sessions(): Promise<string[]>;
  /** A session's metadata, or `undefined` when none was set. */
  getSessionMetadata(sessionId: string): Promise<JSONObject | undefined>;
  /** Merges `metadata` into the session's metadata (keys set to `undefined` are removed). */
  updateSessionMetadata(sessionId: string, metadata: JSONObject): Promise<JSONObject>;
  /**
   * Optional, for storage that several processes share: runs `operation` while `sessionId` is locked against
   * every process using the same storage. The calls for that session made inside it are committed together
   * when it resolves, and none of them when it throws or the process dies. Waits at most the store's lock
   * timeout for the lock, then rejects without running `operation`; a dead process's lock is released by the
   * storage itself. A server uses it so one session is never compacted twice for one trigger.
   */
  withSessionLock?<T>(sessionId: string, operation: () => Promise<T>): Promise<T>;
  /**
   * Optional: deletes everything a session holds (its records, the messages they removed, what they archived,
   * its metadata, and any index of them) in one transaction, so no part outlives the rest. Nothing happens
   * for an unknown session. Storage shared by several processes takes the session's lock first.
   */
  deleteSession?(sessionId: string): Promise<void>;
  /**
   * Optional: full-text search over the items that records archived ({@link CompactionRecord.archived}), best
   * match first, and among equally good matches the newest first. A handle archived more than once in a
   * session is one hit, its newest record's. Rejects with `InvalidSearchQueryError` (an `InvalidOptionsError`)
   * when the query has nothing to search for or a limit that is not a positive integer.
   */
  searchArchived?(query: ArchiveSearchQuery): Promise<ArchiveSearchHit[]>;
  /** Optional: every session of {@link CompactionStore.sessions} with its last activity and size, sorted by id. */
  sessionUsage?(): Promise<SessionUsage[]>;
  /**
   * Optional: resolves once the store is usable (its file open, its database reachable and migrated), and
   * rejects with the store's error when it cannot be. Calls made before it resolves wait for it. A store
   * registry awaits it when it opens a store.
   */
  opened?(): Promise<void>;
  /** Releases what the store holds open (files, connections). Further calls fail. */
  close(): Promise<void>;
}
