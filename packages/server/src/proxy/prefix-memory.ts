import type { CompactionStore, JSONObject } from '@compaction/core';
import { type RetentionSettings, RetentionSweep } from '../serve/retention-sweep.js';
import type { ProxiedFormat } from './upstreams.js';

/**
 * What the proxy remembers of a conversation's last compaction: which original turns it replaced and what it
 * sent instead. The next request that starts with those turns gets the same replacement, byte for byte, so
 * the provider's prompt cache still holds it.
 */
export interface CompactedPrefix extends JSONObject {
  /** The layout of this entry, so a later version can read older ones. */
  version: 1;
  format: ProxiedFormat;
  /** A hash of each original turn (item of the list field) the replacement stands for, in order. */
  turnHashes: string[];
  /** A hash of the original fields beside the list (Anthropic's system prompt). */
  besideHash: string;
  /** The conversation fields sent instead of those turns and fields. */
  replacement: JSONObject;
  /** Compactions of this conversation so far. */
  compactions: number;
}

/** How the store's session ids of the proxy's conversations begin. */
export const proxySessionPrefix = 'proxy:';

/**
 * The store's session id of a conversation, for its entry and its compaction records: apart from the
 * sessions of `compaction serve`, which skips entries that are not its own.
 */
export const storeSession = (key: string) => `${proxySessionPrefix}${key}`;

/** What a {@link PrefixMemory} tells its owner. */
export interface PrefixMemoryEvents {
  /** A conversation was deleted from the store (by retention), with its records and archive. */
  forgotten?(sessionId: string): void;
  /** The store refused to keep a compacted prefix; without it, {@link PrefixMemory.set} throws the error. */
  failed?(problem: string, error: unknown): void;
}

/**
 * The compacted prefixes by conversation key: in memory (the most recent `maxEntries`), and in the store
 * when there is one, so a restarted proxy keeps sending the same prefixes. An entry holds up to a window of
 * JSON (under a megabyte for 200k tokens), so memory keeps a few hundred; an entry dropped from memory is read
 * back from the store, and without a store its conversation is compacted afresh at its next trigger.
 */
export class PrefixMemory {
  private readonly entries = new Map<string, CompactedPrefix>();
  /** When each conversation in memory was last read or written (`Date.now()`). */
  private readonly usedAt = new Map<string, number>();

  constructor(
    private readonly store: CompactionStore | undefined,
    private readonly maxEntries = 256,
    private readonly events: PrefixMemoryEvents = {},
  ) {}

  /** Conversations remembered in memory now. */
  get size(): number {
    return this.entries.size;
  }

  async get(key: string): Promise<CompactedPrefix | undefined> {
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      // Re-inserted, so the least recently used entry is first when one must go.
      this.entries.delete(key);
      this.entries.set(key, kept);
      this.usedAt.set(key, Date.now());
      return kept;
    }
    const stored = (await this.store?.getSessionMetadata(storeSession(key)))?.proxy;
    if (!isCompactedPrefix(stored)) return undefined;
    this.remember(key, stored);
    return stored;
  }

  /**
   * Remembers a conversation's compaction, here and in the store. A store that refuses the write is reported
   * to `events.failed`, not thrown: the entry held here still serves the conversation's next requests.
   */
  async set(key: string, entry: CompactedPrefix): Promise<void> {
    this.remember(key, entry);
    try {
      await this.store?.updateSessionMetadata(storeSession(key), { proxy: entry });
    } catch (error) {
      if (this.events.failed === undefined) throw error;
      this.events.failed(`could not keep the compacted prefix of session ${storeSession(key)}`, error);
    }
  }

  /** Forgets a conversation: its entry here, and all the store holds of it (entry, records, archived text). */
  async forget(key: string): Promise<void> {
    this.entries.delete(key);
    this.usedAt.delete(key);
    await this.store?.deleteSession?.(storeSession(key));
    this.events.forgotten?.(storeSession(key));
  }

  /**
   * Starts sweeping the store for conversations past `retention` (by their last compaction, or their last use
   * when this proxy remembers it), which are forgotten whole, here too; `undefined` without a store. Failed
   * sweeps go to `log`. Stop the sweep when the proxy closes.
   */
  keepWithin(retention: RetentionSettings, log: (line: string) => void): RetentionSweep | undefined {
    const { store } = this;
    if (store === undefined) return undefined;
    return new RetentionSweep(store, retention, {
      owns: (sessionId) => sessionId.startsWith(proxySessionPrefix),
      remove: async ({ sessionId, reason }) => {
        const key = sessionId.slice(proxySessionPrefix.length);
        const entry = this.entries.get(key);
        const usedAt = this.usedAt.get(key) ?? 0;
        // Reusing a prefix writes nothing, so the store learns here that the conversation is still in use.
        if (reason === 'age' && entry !== undefined && Date.now() - usedAt < (retention.maxAgeMs ?? 0)) {
          await store.updateSessionMetadata(sessionId, { proxy: entry });
          return false;
        }
        await this.forget(key);
        return true;
      },
      report: (problem, error) => log(`compaction proxy: ${problem}: ${(error as Error)?.message ?? error}`),
    });
  }

  private remember(key: string, entry: CompactedPrefix): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.usedAt.set(key, Date.now());
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
      this.usedAt.delete(oldest);
    }
  }
}

function isCompactedPrefix(value: unknown): value is CompactedPrefix {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Partial<CompactedPrefix>;
  return (
    entry.version === 1 &&
    Array.isArray(entry.turnHashes) &&
    typeof entry.besideHash === 'string' &&
    typeof entry.replacement === 'object' &&
    entry.replacement !== null
  );
}
