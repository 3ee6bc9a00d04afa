import type { Message } from '../messages/message.js';
import type { CompactionTrigger } from '../specs/compaction-strategy-v1.js';
import type { CompactionEvent } from './compaction-event.js';

/** What the `beforeCompaction` hook is told. */
export interface BeforeCompactionContext {
  sessionId: string;
  trigger: CompactionTrigger;
  messages: readonly Message[];
  tokens: number;
  instructions?: string;
}

/** What the `beforeCompaction` hook may answer. */
export interface BeforeCompactionDecision {
  /** Skip this compaction (not allowed for the `overflow` trigger, which must compact). */
  cancel?: boolean;
  /** Instructions to use instead of the current ones (for example, project-specific focus). */
  instructions?: string;
}

/**
 * Hooks called around each compaction; both may be async. A `beforeCompaction` that throws stops the
 * compaction, and its error reaches the caller; an `afterCompaction` that throws does not undo the compaction,
 * already recorded, whose result is returned. Either way the error is emitted as an `error` event.
 */
export interface CompactionHooks {
  beforeCompaction?(
    context: BeforeCompactionContext,
  ): BeforeCompactionDecision | undefined | Promise<BeforeCompactionDecision | undefined>;
  afterCompaction?(event: CompactionEvent): void | Promise<void>;
}
