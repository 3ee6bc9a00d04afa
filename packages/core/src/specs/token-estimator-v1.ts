import type { Message } from '../messages/message.js';

/**
 * Counts tokens for one tokenizer family. Estimators are pure and synchronous; the {@link TokenCounter}
 * memoizes their per-message results, so an estimator never needs its own cache.
 */
export interface TokenEstimatorV1 {
  readonly specificationVersion: 'v1';
  /** A short name for reports, such as `approximate` or `tiktoken:o200k_base`. */
  readonly name: string;
  /** Tokens of a plain string, without message overhead. */
  countText(text: string): number;
  /** Tokens of one whole message as the provider bills it: content, parts and per-message overhead. */
  countMessage(message: Message): number;
}

/** The current token estimator spec. */
export type TokenEstimator = TokenEstimatorV1;
