import type { Message } from '../messages/message.js';

/** What a {@link CompactionTriggerPolicyV1} is asked before a model call. */
export interface TriggerQueryV1 {
  /** The session the history belongs to: a policy that remembers requests keeps them apart by it. */
  sessionId: string;
  /** The history about to be sent. */
  messages: readonly Message[];
  /** What the history counts. */
  tokens: number;
  /** The budget's limit: no request may count more. */
  limit: number;
  /** The budget's token trigger; a policy may fire before it. */
  trigger: number;
  /** The budget's target. */
  target: number;
}

/** A policy's answer: whether to compact now, and how deep. */
export interface TriggerDecisionV1 {
  /** Whether to compact before this request. */
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
  sent?(request: SentRequestV1): void;
}

/** What `prepare` returned to be sent, as told to {@link CompactionTriggerPolicyV1.sent}. */
export interface SentRequestV1 {
  /** The session of the request. */
  sessionId: string;
  /** The history to be sent. */
  messages: readonly Message[];
  /** What it counts. */
  tokens: number;
  /** Whether `prepare` compacted it. */
  compacted: boolean;
}

export type CompactionTriggerPolicy = CompactionTriggerPolicyV1;
export type TriggerQuery = TriggerQueryV1;
export type TriggerDecision = TriggerDecisionV1;
export type SentRequest = SentRequestV1;
