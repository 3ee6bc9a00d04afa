import {
  type EstimatorProfile,
  measureText,
  type TextFeatureWeights,
  textFeatureBonds,
  textFeatureNames,
} from '@compaction/token-estimator';
import { nonNegativeLeastSquares } from './non-negative-least-squares.js';

const textFeatureCount = textFeatureNames.length;

/**
 * One calibration sample: a text, or a text with a weight (default 1) in the fit and the group (a class of
 * content, say) it belongs to: the fitted safety factor lifts every group's total to at most
 * `underCountTolerance` under its exact total.
 */
export type CalibrationSample = string | { text: string; weight?: number; group?: string };

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
  /**
   * The most tokens the estimate of a text may lose when text is added to it, anywhere. Default 1. Adding
   * text can take away one count of a few features where it goes in (see {@link textFeatureBonds}); their
   * fitted weights are held so that, times the safety factor, no such place weighs more than this. Weights
   * you fix are kept as given.
   */
  maximumDrop?: number;
}

/**
 * Fits an {@link EstimatorProfile} for your content: measures the text features of every sample, fits
 * tokens per feature by non-negative least squares on the relative error (each sample counts by its
 * weight, whatever its length) against `exactCounter`, then fits the safety factor, holding down the few
 * weights that adding text could take away so that no text's estimate drops by more than `maximumDrop` when
 * text is added to it. Give it a few hundred samples that look like your traffic, counted by the exact
 * tokenizer (or by a provider's count endpoint). The shipped profiles of `@compaction/token-estimator` are
 * fitted with it by `src/tokens/fit-profiles.ts`.
 */
export function calibrateProfile(
  corpus: Iterable<CalibrationSample>,
  exactCounter: (text: string) => number,
  options: CalibrationOptions = {},
): EstimatorProfile {
  const samples = measureCorpus(corpus, exactCounter);
  const maximumDrop = options.maximumDrop ?? 1;
  // Weights of features that add up past the maximum drop at one place are held down, and the others fitted
  // again around them; the safety factor fitted next can then be a little higher, so this repeats until it
  // holds (in a round or two on real corpora).
  const held: Partial<TextFeatureWeights> = {};
  let weights = fitWeights(samples, { ...options.fixedWeights }, options);
  let safetyFactor = options.safetyFactor ?? fitSafetyFactor(samples, weights, options);
  for (let round = 0; round < 10; round++) {
    const holding = holdDownBonds(weights, maximumDrop / safetyFactor, options.fixedWeights);
    if (holding === undefined) break;
    Object.assign(held, holding);
    weights = fitWeights(samples, { ...held, ...options.fixedWeights }, options);
    safetyFactor = options.safetyFactor ?? fitSafetyFactor(samples, weights, options);
  }
  // Should ten rounds not settle it, the last weights are scaled down without fitting the others again.
  Object.assign(weights, holdDownBonds(weights, maximumDrop / safetyFactor, options.fixedWeights));
  return { name: options.name ?? 'calibrated', weights, safetyFactor };
}

/**
 * Fits the weights of the features not in `fixedWeights` by non-negative least squares on the relative
 * error: each row and target is divided by the sample's exact count, and scaled by the square root of its
 * weight (which weights its squared error). Fixed features move to the target side.
 */
function fitWeights(
  samples: readonly MeasuredSample[],
  fixedWeights: Partial<TextFeatureWeights>,
  options: CalibrationOptions,
): TextFeatureWeights {
  const fixed = textFeatureNames.map((feature) => fixedWeights[feature]);
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
  return weights;
}

/**
 * The weights to hold so that no group of {@link textFeatureBonds} weighs more than `limit` in total: the
 * group's weights that were not fixed by the caller, scaled down together (rounded down, so the total stays
 * under the limit). `undefined` when every group is within the limit already.
 */
function holdDownBonds(
  weights: TextFeatureWeights,
  limit: number,
  fixedWeights: Partial<TextFeatureWeights> = {},
): Partial<TextFeatureWeights> | undefined {
  let holding: Partial<TextFeatureWeights> | undefined;
  for (const group of textFeatureBonds) {
    const total = group.reduce((sum, feature) => sum + weights[feature], 0);
    // Within a rounding error of the limit counts as within: held weights are rounded down to it.
    if (total <= limit + 1e-9) continue;
    const free = group.filter((feature) => fixedWeights[feature] === undefined);
    const fixedTotal = total - free.reduce((sum, feature) => sum + weights[feature], 0);
    const freeTotal = total - fixedTotal;
    const scale = freeTotal > 0 ? Math.max(0, limit - fixedTotal) / freeTotal : 0;
    holding ??= {};
    for (const feature of free) holding[feature] = Math.floor(weights[feature] * scale * 10_000) / 10_000;
  }
  return holding;
}

interface MeasuredSample {
  features: Float64Array;
  tokens: number;
  weight: number;
  group: string | undefined;
}

/** Each group's samples and the relative error of its total estimate (with no safety factor). */
function groupErrors(
  samples: readonly MeasuredSample[],
  weights: TextFeatureWeights,
): [MeasuredSample[], number][] {
  const groups = new Map<string, MeasuredSample[]>();
  for (const sample of samples) {
    if (sample.group === undefined) continue;
    const members = groups.get(sample.group) ?? [];
    members.push(sample);
    groups.set(sample.group, members);
  }
  return [...groups.values()].map((members) => {
    let estimate = 0;
    let tokens = 0;
    for (const sample of members) {
      estimate += estimateOf(sample, weights);
      tokens += sample.tokens;
    }
    return [members, estimate / tokens - 1];
  });
}

function estimateOf(sample: MeasuredSample, weights: TextFeatureWeights): number {
  let estimate = 0;
  textFeatureNames.forEach((feature, index) => {
    estimate += sample.features[index]! * weights[feature];
  });
  return estimate;
}

function measureCorpus(
  corpus: Iterable<CalibrationSample>,
  exactCounter: (text: string) => number,
): MeasuredSample[] {
  const samples: MeasuredSample[] = [];
  for (const sample of corpus) {
    const text = typeof sample === 'string' ? sample : sample.text;
    const weight = typeof sample === 'string' ? 1 : (sample.weight ?? 1);
    const group = typeof sample === 'string' ? undefined : sample.group;
    const tokens = exactCounter(text);
    // The fitted features only: the floors of long repeated runs are added on top of the fit, not fitted.
    const features = measureText(text, new Float64Array(textFeatureCount));
    if (tokens > 0 && weight > 0) samples.push({ features, tokens, weight, group });
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
      const estimate = estimateOf(sample, weights);
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
  // No group under by more than the tolerance either.
  for (const [, error] of groupErrors(samples, weights))
    factor = Math.max(factor, (1 - tolerance) / (1 + error));
  return Math.ceil(Math.max(1, factor) * 1000) / 1000;
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
