import type { CompactionErrorCode } from '../errors/compaction-error.js';
import type { JSONObject } from '../json.js';
import type { CompactionTrigger } from '../specs/compaction-strategy-v1.js';
import type { Repair } from '../turns/repair.js';
import type { RuleViolation } from '../verify/rule-violation.js';

/**
 * A strategy attempt that did not produce the result: it threw, or its result broke a rule. Plain JSON, so
 * events with failures can be stored and shown as they are.
 */
export interface CompactionFailure {
  /** The strategy that failed. */
  strategy: string;
  /**
   * The code of the error: the strategy's own Compaction error code, `core/rule-violation` when its result broke
   * a rule, `core/budget-unreachable` when it could not reach the target, `core/strategy-failed` for any other error.
   */
  code: CompactionErrorCode;
  /** The error's message, readable as it is (for broken rules, the rules and what broke them). */
  error: string;
  /** The rules its result broke, when it broke any. */
  violations?: RuleViolation[];
  /** With `core/budget-unreachable`: the target it was asked to reach and the best it reached, in tokens. */
  target?: number;
  best?: number;
}

/** The record of one compaction. */
export interface CompactionEvent {
  id: string;
  sessionId: string;
  /** 1 for a session's first compaction, 2 for its second... */
  round: number;
  trigger: CompactionTrigger;
  /** Name of the strategy whose result was used (the fallback's when the main strategy failed). */
  strategy: string;
  /** Whether the fallback produced the result. */
  usedFallback: boolean;
  tokensBefore: number;
  tokensAfter: number;
  messagesBefore: number;
  messagesAfter: number;
  durationMs: number;
  /** ISO 8601 time the compaction started. */
  startedAt: string;
  summary?: string;
  instructions?: string;
  /** Attempts that failed before the result was produced. */
  failures: CompactionFailure[];
  /** Repairs made to the input before compacting. */
  repairs: Repair[];
  details?: JSONObject;
}

/** Why the Compactor decided not to compact. */
export type SkipReason =
  | 'disabled'
  | 'under-trigger'
  | 'under-target'
  | 'too-few-messages'
  | 'no-new-messages'
  | 'back-to-back'
  | 'cancelled';

/**
 * What an `error` event reports: the compaction itself failed (`compaction`: every strategy, or an abort), the
 * store did not record it (`store`: the compaction fails and the session does not advance), a hook threw
 * (`hook`: a `beforeCompaction` failure stops the compaction; an `afterCompaction` failure leaves the
 * recorded compaction in place), a listener of another event threw (`listener`: nothing else changes), or the
 * provider's count failed (`count`, with `countTokens: 'provider'`: the counter's estimate decides instead).
 */
export type CompactionErrorSource = 'compaction' | 'store' | 'hook' | 'listener' | 'count';

/** Events the Compactor emits, by name. */
export interface CompactorEvents {
  start: { sessionId: string; trigger: CompactionTrigger; tokens: number; messages: number };
  end: CompactionEvent;
  skipped: { sessionId: string; trigger: CompactionTrigger; reason: SkipReason; tokens: number };
  error: {
    sessionId: string;
    trigger: CompactionTrigger;
    error: unknown;
    failures: CompactionFailure[];
    /** What failed: see {@link CompactionErrorSource}. */
    source: CompactionErrorSource;
  };
}
