import type { JSONObject } from '../json.js';
import type { CompactionRecord, CompactionStore } from './compaction-store.js';

/** Keeps records and session metadata in memory, copied on the way in and out so they cannot change. */
export class InMemoryCompactionStore implements CompactionStore {
  private readonly records = new Map<string, CompactionRecord[]>();
  private readonly metadata = new Map<string, JSONObject>();
  private closed = false;
  async append(record: CompactionRecord): Promise<void> {
    this.assertOpen();
    const sessionId = record.event.sessionId;
    const records = this.records.get(sessionId) ?? [];
    records.push(structuredClone(record));
    this.records.set(sessionId, records);
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
    // A key set to undefined is removed (the store conformance suite checks every store does so).
    const update = { ...this.metadata.get(sessionId), ...structuredClone(metadata) };
    const merged = Object.fromEntries(Object.entries(update).filter(([, value]) => value !== undefined));
    this.metadata.set(sessionId, merged);
    return structuredClone(merged);
  }
  async close(): Promise<void> {
    this.closed = true;
  }
  private assertOpen(): void {
    if (this.closed) throw new Error('the compaction store is closed');
  }
}
