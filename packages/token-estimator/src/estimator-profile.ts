import type { TextFeatureWeights } from './text-features.js';
import type { EncodingName } from './vocabulary/vocabulary.js';

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
  /**
   * The tokenizers whose vocabularies count the texts the weights are not right for: texts with letters
   * outside ASCII, and ASCII prose in a language other than English. Such a text is counted exactly by each,
   * and the largest count, times the safety factor, is the estimate. None (a profile of your own): every text
   * is counted by its features.
   */
  readonly vocabularies?: readonly EncodingName[];
}
