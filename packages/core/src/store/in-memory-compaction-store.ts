import type { JSONObject } from '../json.js';
import type {
  ArchiveSearchHit,
  ArchiveSearchQuery,
  CompactionRecord,
  CompactionStore,
  SessionUsage,
} from './compaction-store.js';
import { mergeSessionMetadata } from './merge-session-metadata.js';
import { searchArchivedRecords } from './search-archived-records.js';

/** Keeps records and session metadata in memory, copied on the way in and out so they cannot change. */
export class InMemoryCompactionStore implements CompactionStore {
  private readonly records = new Map<string, CompactionRecord[]>();
  private readonly metadata = new Map<string, JSONObject>();
  /** The time of each session's newest write, as an ISO 8601 string. */
  private readonly activity = new Map<string, string>();
  private closed = false;
  /** Resolves at once: memory needs no opening. */
  async opened(): Promise<void> {}
  async append(record: CompactionRecord): Promise<void> {
    this.assertOpen();
    const sessionId = record.event.sessionId;
    const records = this.records.get(sessionId) ?? [];
    records.push(structuredClone(record));
    this.records.set(sessionId, records);
    this.activity.set(sessionId, new Date().toISOString());
  }
  async list(sessionId: string): Promise<CompactionRecord[]> {
    this.assertOpen();
    return structuredClone(this.records.get(sessionId) ?? []);
  }
  async sessions(): Promise<string[]> {
    this.assertOpen();
    return [...new Set([...this.records.keys(), ...this.metadata.keys()])].sort();
  }
  async getSessionMetadata(sessionId: string): Promise<JSONObject | undefined> {
    this.assertOpen();
    const metadata = this.metadata.get(sessionId);
    return metadata === undefined ? undefined : structuredClone(metadata);
  }
  async updateSessionMetadata(sessionId: string, metadata: JSONObject): Promise<JSONObject> {
    this.assertOpen();
    const merged = mergeSessionMetadata(this.metadata.get(sessionId), metadata);
    this.metadata.set(sessionId, merged);
    this.activity.set(sessionId, new Date().toISOString());
    return structuredClone(merged);
  }
  async deleteSession(sessionId: string): Promise<void> {
    this.assertOpen();
    this.records.delete(sessionId);
    this.metadata.delete(sessionId);
    this.activity.delete(sessionId);
  }
  /** Reads every archived item: memory holds no index. */
  async searchArchived(query: ArchiveSearchQuery): Promise<ArchiveSearchHit[]> {
    this.assertOpen();
    const sessions = [...this.records].map(([sessionId, records]) => ({ sessionId, records }));
    return searchArchivedRecords(sessions, query);
  }
  async sessionUsage(): Promise<SessionUsage[]> {
    const encoder = new TextEncoder();
    return (await this.sessions()).map((sessionId) => ({
      sessionId,
      lastActivityAt: this.activity.get(sessionId)!,
      // As JSON in UTF-8, the form the persistent stores keep.
      bytes: encoder.encode(JSON.stringify([this.records.get(sessionId), this.metadata.get(sessionId)]))
        .length,
    }));
  }
  async close(): Promise<void> {
    this.closed = true;
  }
  private assertOpen(): void {
    if (this.closed) throw new Error('the compaction store is closed');
  }
}
