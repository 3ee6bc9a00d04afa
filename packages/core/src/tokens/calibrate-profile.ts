import type { EstimatorProfile } from './estimator-profile.js';
import type { MessageOverhead } from './message-estimator.js';
import { nonNegativeLeastSquares } from './non-negative-least-squares.js';
import { measureText, type TextFeatureWeights, textFeatureCount, textFeatureNames } from './text-features.js';

/** One calibration sample: a text, or a text with a weight (default 1) in the fit. */
export type CalibrationSample = string | { text: string; weight?: number };

/** Options of {@link calibrateProfile}. */
export interface CalibrationOptions {
  /** Name of the fitted profile. Default `calibrated`. */
  name?: string;
  /**
   * The safety factor of the fitted profile. By default it is fitted too: the smallest factor, at least 1,
   * with which at most `underCountShare` of the samples (by weight) of at least `minimumSampleTokens`
   * exact tokens are under-counted by more than `underCountTolerance`.
   */
  safetyFactor?: number;
  /** Under-count, as a fraction, that the fitted safety factor tolerates. Default 0.02. */
  underCountTolerance?: number;
  /** Share of samples (by weight) that may be under-counted by more than the tolerance. Default 0.1. */
  underCountShare?: number;
  /** Samples smaller than this (in exact tokens) do not shape the safety factor: rounding dominates them. Default 50. */
  minimumSampleTokens?: number;
  /**
   * Weights that are set rather than fitted, for features too rare in the corpus to fit reliably (emoji,
   * for example). The fit accounts for their tokens.
   */
  fixedWeights?: Partial<TextFeatureWeights>;
  /** Weights for features that never occur in the corpus, so they cannot be fitted. Default 0. */
  fallbackWeights?: Partial<TextFeatureWeights>;
  /** Message overhead of the profile. */
  overhead?: Partial<MessageOverhead>;
}

/**
 * Fits an {@link EstimatorProfile} for your content: measures the text features of every sample, fits
 * tokens per feature by non-negative least squares on the relative error (each sample counts by its
 * weight, whatever its length) against `exactCounter`, then fits the safety factor. Give it a few hundred samples
 * that look like your traffic, counted by the exact tokenizer (or by a provider's count endpoint).
 */
export function calibrateProfile(
  corpus: Iterable<CalibrationSample>,
  exactCounter: (text: string) => number,
  options: CalibrationOptions = {},
): EstimatorProfile {
  const samples = measureCorpus(corpus, exactCounter);
  const fixed = textFeatureNames.map((feature) => options.fixedWeights?.[feature]);
  // Relative error: each row and target is divided by the sample's exact count, and scaled by the square
  // root of its weight (which weights its squared error). Fixed features move to the target side.
  const rows: Float64Array[] = [];
  const targets: number[] = [];
  const present = new Uint8Array(textFeatureCount);
  for (const sample of samples) {
    const scale = Math.sqrt(sample.weight) / sample.tokens;
    let fixedTokens = 0;
    const row = new Float64Array(textFeatureCount);
    sample.features.forEach((value, index) => {
      if (value !== 0) present[index] = 1;
      const weight = fixed[index];
      if (weight === undefined) row[index] = value * scale;
      else fixedTokens += value * weight;
    });
    rows.push(row);
    targets.push(Math.sqrt(sample.weight) * (1 - fixedTokens / sample.tokens));
  }
  const fitted = nonNegativeLeastSquares(rows, targets);
  const weights = {} as TextFeatureWeights;
  textFeatureNames.forEach((feature, index) => {
    weights[feature] =
      fixed[index] ?? (present[index] ? round(fitted[index]!) : (options.fallbackWeights?.[feature] ?? 0));
  });
  return {
    name: options.name ?? 'calibrated',
    weights,
    safetyFactor: options.safetyFactor ?? fitSafetyFactor(samples, weights, options),
    ...(options.overhead ? { overhead: options.overhead } : {}),
  };
}

interface MeasuredSample {
  features: Float64Array;
  tokens: number;
  weight: number;
}

function measureCorpus(
  corpus: Iterable<CalibrationSample>,
  exactCounter: (text: string) => number,
): MeasuredSample[] {
  const samples: MeasuredSample[] = [];
  for (const sample of corpus) {
    const text = typeof sample === 'string' ? sample : sample.text;
    const weight = typeof sample === 'string' ? 1 : (sample.weight ?? 1);
    const tokens = exactCounter(text);
    if (tokens > 0 && weight > 0) samples.push({ features: measureText(text), tokens, weight });
  }
  return samples;
}

function fitSafetyFactor(
  samples: readonly MeasuredSample[],
  weights: TextFeatureWeights,
  options: CalibrationOptions,
): number {
  const tolerance = options.underCountTolerance ?? 0.02;
  const share = options.underCountShare ?? 0.1;
  const minimumTokens = options.minimumSampleTokens ?? 50;
  // The factor each sample needs to be under-counted by at most the tolerance, largest first.
  const needs = samples
    .filter((sample) => sample.tokens >= minimumTokens)
    .map((sample) => {
      let estimate = 0;
      textFeatureNames.forEach((feature, index) => {
        estimate += sample.features[index]! * weights[feature];
      });
      return {
        factor: estimate > 0 ? ((1 - tolerance) * sample.tokens) / estimate : 1,
        weight: sample.weight,
      };
    })
    .sort((left, right) => right.factor - left.factor);
  const totalWeight = needs.reduce((sum, need) => sum + need.weight, 0);
  let skipped = 0;
  let factor = 1;
  for (const need of needs) {
    skipped += need.weight;
    factor = need.factor;
    if (skipped > share * totalWeight) break;
  }
  return Math.ceil(Math.max(1, factor) * 1000) / 1000;
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
