/** Conversations whose current prefix is tallied; beyond, the least recently used is forgotten. */
const maximumConversations = 1024;
/** Finished prefixes kept for the status. */
const maximumFinished = 32;

/** How many requests each compaction's prefix served, for the status and the line about each compaction. */
export interface PrefixUseSummary {
  /** Requests served by each of the most recent compacted prefixes that a later compaction replaced. */
  recent: number[];
  /** Their mean, or `null` before any was replaced. */
  average: number | null;
}

/**
 * Counts the requests that each conversation's compacted prefix served: the request that compacted, and each
 * later one that started with the same compacted turns, byte for byte (what the provider's prompt cache reads).
 */
export class PrefixUse {
  private readonly current = new Map<string, number>();
  private readonly finished: number[] = [];

  /** A request of `key` was sent with its remembered compacted prefix. */
  used(key: string): void {
    const served = this.current.get(key);
    if (served !== undefined) this.touch(key, served + 1);
  }

  /** `key` was compacted: its new prefix serves this request; returns what the replaced prefix served. */
  compacted(key: string): number | undefined {
    const previous = this.current.get(key);
    this.touch(key, 1);
    if (previous === undefined) return undefined;
    this.finished.push(previous);
    if (this.finished.length > maximumFinished) this.finished.shift();
    return previous;
  }

  summary(): PrefixUseSummary {
    const total = this.finished.reduce((sum, served) => sum + served, 0);
    return {
      recent: [...this.finished],
      average: this.finished.length === 0 ? null : total / this.finished.length,
    };
  }

  private touch(key: string, served: number): void {
    this.current.delete(key);
    this.current.set(key, served);
    for (const oldest of this.current.keys()) {
      if (this.current.size <= maximumConversations) break;
      this.current.delete(oldest);
    }
  }
}
