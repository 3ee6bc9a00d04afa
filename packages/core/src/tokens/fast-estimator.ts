import {
  createTextEstimator,
  type EstimatorProfile,
  InvalidEstimatorSettingsError,
  type TextEstimator,
} from '@compaction/token-estimator';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { TokenEstimator } from '../specs/token-estimator-v1.js';
import {
  createMessageEstimator,
  type MessageEstimatorSettings,
  type MessageOverhead,
} from './message-estimator.js';

/** Settings of {@link createFastEstimator}. */
export interface FastEstimatorSettings extends Pick<MessageEstimatorSettings, 'media'> {
  /**
   * The tokenizer family to estimate, from `@compaction/token-estimator`. Default `o200kProfile` (OpenAI
   * GPT-4o, GPT-4.1, GPT-5, o-series); `cl100kProfile` and `anthropicProfile` are the others shipped.
   */
  profile?: EstimatorProfile;
  /** Replaces the profile's safety factor. */
  safetyFactor?: number;
  /**
   * Counts every text exactly, through the tokenizer's vocabulary: `@compaction/token-estimator`'s `vocabulary`
   * setting. Default true with the shipped profiles; false counts by the fitted features, with no guarantee on
   * text unlike the fit's corpus.
   */
  vocabulary?: boolean;
  /** Replaces parts of the default message overhead. */
  overhead?: Partial<MessageOverhead>;
}

/**
 * The default estimator: the text estimator of `@compaction/token-estimator` (each text counted through the
 * tokenizer's vocabulary, tens of times faster than tiktoken) with the message overhead of
 * {@link createMessageEstimator}. Record provider usage so that what was sent is counted as it was billed.
 *
 * @throws {InvalidOptionsError} when a profile weight is negative or not a number, or the safety factor is
 * not a positive number.
 */
export function createFastEstimator(settings: FastEstimatorSettings = {}): TokenEstimator {
  const text = textEstimatorOf(settings);
  return createMessageEstimator({
    name: text.name,
    countText: text.countText,
    ...(settings.overhead ? { overhead: settings.overhead } : {}),
    ...(settings.media ? { media: settings.media } : {}),
  });
}

function textEstimatorOf(settings: FastEstimatorSettings): TextEstimator {
  try {
    return createTextEstimator(settings);
  } catch (error) {
    // Core reports every bad option with one error class, so callers need no second package's errors.
    if (InvalidEstimatorSettingsError.isInstance(error)) {
      throw new InvalidOptionsError({ subject: 'fast estimator', issues: error.issues, cause: error });
    }
    throw error;
  }
}
