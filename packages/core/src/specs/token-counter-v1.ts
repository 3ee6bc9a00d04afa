import type { Message } from '../messages/message.js';
import type { TokenEstimator } from './token-estimator-v1.js';

/**
 * What a strategy counts with: the shared, memoized token counter of a compaction. An interface, so a plugin
 * depends on no implementation; `createTokenCounter` builds the default one.
 */
export interface TokenCounterV1 {
  readonly specificationVersion: 'v1';
  /** The estimator behind the counts, for text that is not a message yet (a summary being written). */
  readonly estimator: TokenEstimator;
  /** Estimated tokens of one message. */
  countMessage(message: Message): number;
  /** Tokens of a whole list as the provider would count it: exact where usage was reported for it. */
  count(messages: readonly Message[]): number;
  /** Estimated tokens of a list, ignoring reported usage: what a strategy compares when it removes messages. */
  estimate(messages: readonly Message[]): number;
}

/** The current token counter spec. */
export type TokenCounter = TokenCounterV1;
