import type { Message } from '../messages/message.js';

/** What a {@link CompactionTriggerPolicyV1} is asked before a model call. */
export interface TriggerQueryV1 {
  sessionId: string;
  /** The history about to be sent, and its count. */
  messages: readonly Message[];
  tokens: number;
  /** The resolved budget: `trigger` is the token trigger, a policy may fire before it. */
  limit: number;
  trigger: number;
  target: number;
}

/** A policy's answer: whether to compact now, and how deep. */
export interface TriggerDecisionV1 {
  compact: boolean;
  /** Tokens to compact down to, instead of the budget's target (a policy that clears in large steps). */
  target?: number;
}

/**
 * Decides when automatic compaction runs, in place of the token trigger alone (such as a trigger that weighs
 * what compacting saves against the prompt cache it breaks). The Compactor asks it in `prepare` while the
 * history is under the limit (over it, it always compacts), then tells it what was sent.
 */
export interface CompactionTriggerPolicyV1 {
  /** The registered name, such as `cache-aware`. */
  readonly name: string;
  decide(query: TriggerQueryV1): TriggerDecisionV1;
  /** Called once per `prepare` with the history returned to be sent, compacted or not. */
  sent?(request: {
    sessionId: string;
    messages: readonly Message[];
    tokens: number;
    compacted: boolean;
  }): void;
}

export type CompactionTriggerPolicy = CompactionTriggerPolicyV1;
export type TriggerQuery = TriggerQueryV1;
export type TriggerDecision = TriggerDecisionV1;
