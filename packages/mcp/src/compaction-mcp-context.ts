import type { CompactionStore } from '@compaction/core';
import type { CompactTarget } from './compact-target.js';

/** What every tool of the server reads: the store, the default session and the bounds. */
export interface CompactionMcpContext {
  store: CompactionStore;
  /** The conversation the tools read when a call names none; every conversation when absent. */
  sessionId?: string;
  /** Most characters of archived text in one recall answer. */
  maximumCharacters: number;
  /** Where `compact` sends its request; none answers how to configure one. */
  compactTarget?: CompactTarget;
}
