import type { Compactor, CompactorSettings } from '@compaction/core';
import type { AgentInputItem } from '@openai/agents';

/** What every {@link CompactionSession} takes besides its compactor. */
export interface CompactionSessionOptions {
  /**
   * The session's id, returned by `getSessionId` and used for the compaction records (events, store, recall).
   * Default: a random UUID.
   */
  sessionId?: string;
  /** Items the session starts with (copied). */
  items?: readonly AgentInputItem[];
}

/**
 * The settings of a {@link CompactionSession}: a {@link Compactor} of one's own, or the settings of
 * `createCompactor` (a strategy object and a budget; see `createCompactionSession` for strategies by name).
 */
export type CompactionSessionSettings =
  | ({ compactor: Compactor } & CompactionSessionOptions)
  | (CompactorSettings & CompactionSessionOptions);
