/**
 * Allowances per letter of a script, added to a fitted profile where its weights are uncertain: the fit of
 * fit-profiles.ts learned the languages of its corpus from word lists and under-counted real text in other
 * languages by 10 to 40%. For each script feature, the smallest extra weight that lifts every text of natural
 * language in the fitted catalogs (bench/src/tokens/translation-catalogs.ts) written mostly in that script to
 * within the bound: a maximum over texts, not a fit of their mean, so no single text is left under. The
 * held-back catalogs and languages are never looked at here.
 */
import {
  createTextEstimator,
  type EstimatorProfile,
  measureText,
  type TextFeature,
  textFeatureNames,
} from '@compaction/token-estimator';

/** The bound each text is lifted to: at most this fraction under its exact count. */
const underCountLimit = 0.045;
/** A text counts for a script when that many of its characters, at least, are the script's letters. */
const dominantShare = 0.3;

/**
 * The script features, in the order they are lifted, each with the feature that must be absent from a text for
 * it to count (Greek letters are Cyrillic letters too: Cyrillic is lifted on text without Greek, then Greek on
 * what is still under).
 */
const scriptFeatures: readonly { feature: TextFeature; without?: TextFeature }[] = [
  { feature: 'accentedLetters' },
  { feature: 'cyrillicLetters', without: 'greekLetters' },
  { feature: 'greekLetters' },
  { feature: 'arabicLetters' },
  { feature: 'indicLetters', without: 'sparseScriptLetters' },
  { feature: 'sparseScriptLetters' },
  { feature: 'hangulLetters' },
  { feature: 'cjk' },
];

/** A profile with each script feature lifted just enough that no text of `texts` is under the bound. */
export function withScriptAllowances(
  profile: EstimatorProfile,
  texts: readonly string[],
  exactCounter: (text: string) => number,
): EstimatorProfile {
  const weights = { ...profile.weights };
  const exact = texts.map(exactCounter);
  const features = texts.map((text) => {
    const measured = measureText(text);
    return (feature: TextFeature) => measured[textFeatureNames.indexOf(feature)]!;
  });
  for (const { feature, without } of scriptFeatures) {
    const estimator = createTextEstimator({ profile: { ...profile, weights } });
    let allowance = 0;
    texts.forEach((text, index) => {
      const count = features[index]!(feature);
      if (count < dominantShare * text.length) return;
      if (without !== undefined && features[index]!(without) > 0) return;
      const missing = (1 - underCountLimit) * exact[index]! - estimator.countText(text);
      allowance = Math.max(allowance, missing / count / profile.safetyFactor);
    });
    // Rounded up, so the bound still holds at four decimals.
    weights[feature] = Math.ceil((weights[feature] + allowance) * 10_000) / 10_000;
  }
  return { ...profile, weights };
}
