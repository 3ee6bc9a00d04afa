import type { CompactionRecord, CompactionStore } from '@compaction/core';

/** What one conversation has archived since the proxy started. */
export interface ArchivedConversation {
  /** The store's session id: what `compaction recall --session` and `compaction mcp --session` take. */
  sessionId: string;
  /** Items archived (a tool's output, turns a summary replaced), each under its handle. */
  items: number;
  /** Bytes of the archived text (UTF-8). */
  bytes: number;
}

/** The archive's part of `GET /compaction/status`. */
export interface ProxyArchiveStatus {
  /** Whether compactions archive what they remove (the proxy has a store, and archiving is not turned off). */
  enabled: boolean;
  /** Items archived since the proxy started, of conversations still kept. */
  items: number;
  /** Their bytes of text (UTF-8). */
  bytes: number;
  /** The conversations that archived most recently, the latest last, at most 100 (`listedConversations`). */
  conversations: ArchivedConversation[];
}

/** What one compaction's archiving came to, for the line about it. */
export interface ArchiveOutcome {
  sessionId: string;
  items: number;
  /** False when the store refused the record: its items cannot be recalled. */
  stored: boolean;
}

/** Conversations listed in the status; the totals count them all. */
export const listedConversations = 100;
/** Outcomes kept until the line about their compaction is written (one per compaction under way). */
const keptOutcomes = 256;

/**
 * The proxy's archive: the store the Compactor records each compaction in (with the items it archived, under
 * the handles its placeholders name), which counts what each conversation archived, and reports a write the
 * store refused instead of failing the compaction, so the request still goes upstream compacted.
 */
export class ProxyArchive {
  /** The store given to the Compactor. */
  readonly store: CompactionStore;
  private readonly conversations = new Map<string, ArchivedConversation>();
  private readonly outcomes = new Map<string, ArchiveOutcome>();
  private totalItems = 0;
  private totalBytes = 0;

  constructor(
    store: CompactionStore,
    private readonly failed: (problem: string, error: unknown) => void,
  ) {
    this.store = {
      append: (record) => this.append(store, record),
      list: (sessionId) => store.list(sessionId),
      sessions: () => store.sessions(),
      getSessionMetadata: (sessionId) => store.getSessionMetadata(sessionId),
      updateSessionMetadata: (sessionId, metadata) => store.updateSessionMetadata(sessionId, metadata),
      close: () => store.close(),
    };
  }

  /** What the compaction of event `eventId` archived, once (`undefined` for one this archive did not record). */
  takeOutcome(eventId: string): ArchiveOutcome | undefined {
    const outcome = this.outcomes.get(eventId);
    this.outcomes.delete(eventId);
    return outcome;
  }

  /** A conversation was deleted from the store (retention): its items no longer count. */
  forget(sessionId: string): void {
    const counted = this.conversations.get(sessionId);
    if (counted === undefined) return;
    this.conversations.delete(sessionId);
    this.totalItems -= counted.items;
    this.totalBytes -= counted.bytes;
  }

  status(): ProxyArchiveStatus {
    const listed = [...this.conversations.values()].slice(-listedConversations);
    return {
      enabled: true,
      items: this.totalItems,
      bytes: this.totalBytes,
      conversations: listed.map((conversation) => ({ ...conversation })),
    };
  }

  private async append(store: CompactionStore, record: CompactionRecord): Promise<void> {
    const { sessionId, id } = record.event;
    const items = record.archived ?? [];
    const outcome: ArchiveOutcome = { sessionId, items: items.length, stored: true };
    try {
      await store.append(record);
    } catch (error) {
      outcome.stored = false;
      this.failed(`could not archive ${items.length} items of session ${sessionId}`, error);
    }
    this.outcomes.set(id, outcome);
    for (const oldest of this.outcomes.keys()) {
      if (this.outcomes.size <= keptOutcomes) break;
      this.outcomes.delete(oldest);
    }
    if (!outcome.stored || items.length === 0) return;
    const bytes = items.reduce((sum, item) => sum + Buffer.byteLength(item.text, 'utf8'), 0);
    const counted = this.conversations.get(sessionId) ?? { sessionId, items: 0, bytes: 0 };
    // Re-inserted, so the conversations that archived most recently come last.
    this.conversations.delete(sessionId);
    this.conversations.set(sessionId, {
      sessionId,
      items: counted.items + items.length,
      bytes: counted.bytes + bytes,
    });
    this.totalItems += items.length;
    this.totalBytes += bytes;
  }
}
