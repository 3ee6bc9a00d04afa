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
const underCountLimit = 0.03;
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

/**
 * The emoji blocks whose characters {@link withEmojiBound} prices alone, each of which the estimator counts as two
 * `surrogates`: an astral character is two units, and a symbol of the emoji blocks of the Basic Multilingual
 * Plane (Miscellaneous Technical, Miscellaneous Symbols, Dingbats, Miscellaneous Symbols and Arrows, the keycap)
 * one unit counted as two, since it costs as much alone.
 */
const emojiBlocks: readonly (readonly [first: number, end: number])[] = [
  [0x1f300, 0x1fb00],
  [0x2300, 0x2400],
  [0x2600, 0x27c0],
  [0x2b00, 0x2c00],
  [0x20e3, 0x20e4],
];

/**
 * The profile with the weight of a surrogate unit raised, where it is lower, to the most a character of the
 * emoji blocks costs alone in the exact tokenizer, per unit it counts for: 3 tokens in both o200k and cl100k, for an
 * astral emoji (`😀`) as for a symbol such as `⏰` or `☀`, taken from the tokenizer, not from texts. The fit saw
 * few emoji, and under-counted skin tones, flags and joined sequences in cl100k by up to 15%; the average (2.5
 * tokens in o200k, 2.9 in cl100k) still left families (`👨‍👩‍👧‍👦`) 5% under in cl100k. Counted with the other
 * symbols, `✅` was 10% under in cl100k (2 tokens against 1.8).
 */
export function withEmojiBound(
  profile: EstimatorProfile,
  exactCounter: (text: string) => number,
): EstimatorProfile {
  let most = 0;
  for (const [first, end] of emojiBlocks) {
    for (let code = first; code < end; code++)
      most = Math.max(most, exactCounter(String.fromCodePoint(code)));
  }
  const weights = { ...profile.weights, surrogates: Math.max(profile.weights.surrogates, most / 2) };
  return { ...profile, weights };
}
