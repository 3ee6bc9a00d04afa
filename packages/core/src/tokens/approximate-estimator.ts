import type { TokenEstimator } from '../specs/token-estimator-v1.js';
import { createMessageEstimator } from './message-estimator.js';

/** Settings of {@link createApproximateEstimator}. */
export interface ApproximateEstimatorSettings {
  /** Average characters per token. Default 3.5: a little conservative for English prose and code. */
  charactersPerToken?: number;
}

/**
 * A simple length-based estimator: `ceil(characters / charactersPerToken)` per text, plus message overhead.
 * Fast and dependency-free, but it under-counts dense content (JSON, CJK text); prefer an exact tokenizer
 * when precision matters.
 */
export function createApproximateEstimator(settings: ApproximateEstimatorSettings = {}): TokenEstimator {
  const charactersPerToken = settings.charactersPerToken ?? 3.5;
  return createMessageEstimator({
    name: `approximate:${charactersPerToken}`,
    countText: (text) => Math.ceil(text.length / charactersPerToken),
  });
}
