import type { EstimatorProfile } from './estimator-profile.js';
import { cl100kProfile, o200kProfile } from './estimator-profiles.js';
import { type TextFeatureWeights, textFeatureBonds, textFeatureNames } from './text-features.js';

/** An allowance for Claude tokenizers producing more tokens than OpenAI ones for the same text. */
const anthropicSafetyFactor = 1.25;

/**
 * Feature by feature, the larger of the fitted profiles' weights (their safety factors applied), each group of
 * {@link textFeatureBonds} held under one token after `safetyFactor`: the fitted profiles keep every group
 * under 1 / 1.25 of a token, but the larger weights of a group of several can come from different profiles,
 * and such a group is scaled back to that limit.
 */
function largerWeights(
  profiles: readonly EstimatorProfile[],
  safetyFactor: number,
): Readonly<TextFeatureWeights> {
  const weights = {} as TextFeatureWeights;
  for (const feature of textFeatureNames) {
    weights[feature] = Math.max(
      ...profiles.map((profile) => profile.weights[feature] * profile.safetyFactor),
    );
  }
  for (const group of textFeatureBonds) {
    const total = group.reduce((sum, feature) => sum + weights[feature], 0);
    if (total * safetyFactor <= 1) continue;
    for (const feature of group) weights[feature] = weights[feature] / total / safetyFactor;
  }
  return weights;
}

/**
 * Claude models, conservatively. Claude's tokenizer is not public, so this profile cannot be fitted
 * offline: it takes, feature by feature, the larger of the o200k and cl100k weights (cl100k is much less
 * efficient on CJK and other alphabets) with a safety factor of 1.25, an allowance for Claude tokenizers
 * producing more tokens than OpenAI ones for the same text. For exact numbers, record provider usage: what
 * was sent is then counted as the provider billed it.
 */
export const anthropicProfile: EstimatorProfile = {
  name: 'anthropic',
  weights: largerWeights([o200kProfile, cl100kProfile], anthropicSafetyFactor),
  safetyFactor: anthropicSafetyFactor,
  vocabularies: ['o200k_base', 'cl100k_base'],
};
