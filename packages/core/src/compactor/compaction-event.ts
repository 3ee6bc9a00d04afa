import type { CompactionErrorCode } from '../errors/compaction-error.js';
import type { JSONObject } from '../json.js';
import type { CompactionTrigger } from '../specs/compaction-strategy-v1.js';
import type { Repair } from '../turns/repair.js';
import type { RuleViolation } from '../verify/rule-violation.js';

/** A strategy attempt that threw or whose result broke a rule, as plain JSON to store and show as it is. */
export interface CompactionFailure {
  strategy: string;
  /** Its own error's code, or `core/rule-violation`, `core/budget-unreachable`, `core/strategy-failed`. */
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
  | 'cancelled'
  /** A forced manual compaction (`force`) found nothing the strategies may remove: after its `start` event. */
  | 'nothing-to-compact'
  /** With `background`: over the trigger but under the limit, sent as it is while a background job runs. */
  | 'background-pending';

/**
 * What failed, in an `error` event: `compaction` (every strategy, or an abort); `store` (the compaction
 * fails, the session does not advance); `hook` (a failing `beforeCompaction` stops the compaction, a failing
 * `afterCompaction` leaves it recorded); `listener` (of another event: nothing else changes); `count` (with
 * `countTokens: 'provider'`: the counter's estimate decides instead).
 */
export type CompactionErrorSource = 'compaction' | 'store' | 'hook' | 'listener' | 'count';

/**
 * Why a compaction made in the background was dropped: the history no longer begins with the messages it
 * compacted (`history-changed`); it failed or its hook cancelled it (`failed`, `skipped`: `prepare` compacts in
 * line at the trigger); the session was forgotten or evicted (`session-closed`); or another compaction of the
 * session was recorded since it started, or is compacted in line over the limit because the running job's result
 * with the messages since would not do (`superseded`).
 */
export type BackgroundDiscardReason =
  | 'history-changed'
  | 'failed'
  | 'skipped'
  | 'session-closed'
  | 'superseded';

/** The life of one compaction made in the background (the Compactor's `background` setting). */
export type BackgroundEvent =
  | { status: 'started'; sessionId: string; tokens: number; messages: number }
  | {
      status: 'used';
      sessionId: string;
      /** Time `prepare` did not wait at the trigger: the job's duration less what `prepare` waited for it. */
      savedMs: number;
      /** Time `prepare` waited for the job at the trigger (0 when it was ready). */
      waitedMs: number;
      /** Messages that came after the compacted history, added to the result. */
      appended: number;
      /**
       * Whether the result with them was compacted again in line (nothing saved): only when the messages since
       * alone were over the target, or the result with them over the limit.
       */
      compactedAgain: boolean;
    }
  | { status: 'discarded'; sessionId: string; reason: BackgroundDiscardReason; error?: unknown };

/** Events the Compactor emits, by name. */
export interface CompactorEvents {
  start: { sessionId: string; trigger: CompactionTrigger; tokens: number; messages: number };
  end: CompactionEvent;
  /** With the `background` setting: a compaction started ahead of the trigger, used, or dropped. */
  background: BackgroundEvent;
  skipped: { sessionId: string; trigger: CompactionTrigger; reason: SkipReason; tokens: number };
  error: {
    sessionId: string;
    trigger: CompactionTrigger;
    error: unknown;
    failures: CompactionFailure[];
    source: CompactionErrorSource;
  };
}
