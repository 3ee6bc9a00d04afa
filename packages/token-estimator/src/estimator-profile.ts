import type { TextFeatureWeights } from './text-features.js';

/**
 * The coefficients of the text estimator for one tokenizer family: tokens per unit of each text feature,
 * fitted against an exact tokenizer, and a safety factor applied on top.
 */
export interface EstimatorProfile {
  /** A short name for reports, such as `o200k`. */
  readonly name: string;
  /** Tokens per unit of each text feature (see {@link textFeatureNames}). */
  readonly weights: Readonly<TextFeatureWeights>;
  /**
   * Multiplier applied to the weighted sum, at least 1, so that the estimate errs on the side of counting
   * too many tokens: compaction that fires slightly early is harmless, a request that overflows is not.
   */
  readonly safetyFactor: number;
}
