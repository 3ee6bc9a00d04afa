import type { CompactionRecord, CompactionStore } from './compaction-store.js';

/**
 * Keeps records in memory. Records are copied on the way in and out, so neither the Compactor's later
 * work nor a caller's edits can change what was recorded.
 */
export class InMemoryCompactionStore implements CompactionStore {
  private readonly sessions = new Map<string, CompactionRecord[]>();

  async append(record: CompactionRecord): Promise<void> {
    const sessionId = record.event.sessionId;
    const records = this.sessions.get(sessionId) ?? [];
    records.push(structuredClone(record));
    this.sessions.set(sessionId, records);
  }

  async list(sessionId: string): Promise<CompactionRecord[]> {
    return structuredClone(this.sessions.get(sessionId) ?? []);
  }
}
