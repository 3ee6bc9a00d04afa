import {
  type EstimatorSettingsIssue,
  InvalidEstimatorSettingsError,
} from './errors/invalid-estimator-settings-error.js';
import type { EstimatorProfile } from './estimator-profile.js';
import { o200kProfile } from './estimator-profiles.js';
import { RememberedCounts } from './remembered-counts.js';
import {
  longRunTokensIndex,
  measuredCount,
  measureText,
  textFeatureCount,
  textFeatureNames,
} from './text-features.js';
import { type EncodingName, loadVocabulary, type Vocabulary } from './vocabulary/vocabulary.js';

const letterPiecesIndex = textFeatureNames.indexOf('letterPieces');
const attachedPiecesIndex = textFeatureNames.indexOf('attachedPieces');
const joinedPiecesIndex = textFeatureNames.indexOf('joinedPieces');
const digitGroupsIndex = textFeatureNames.indexOf('digitGroups');
const punctuationRunsIndex = textFeatureNames.indexOf('punctuationRuns');
const lineBreaksIndex = textFeatureNames.indexOf('lineBreaks');
const spaceRunsIndex = textFeatureNames.indexOf('spaceRuns');

/**
 * A lower bound of the tokens of a text, from its features: o200k and cl100k first cut a text into pieces
 * (words with the space before them, groups of up to three digits, runs of punctuation, whitespace runs before
 * line feeds or that no word follows), and no token spans two pieces, so each piece is a token at least. A piece
 * of letters right after punctuation can share a piece with it (`:value`, `.push`), so those count once. It
 * depends on no fitted weight, and is a lower bound up to details (cl100k keeps `getUserName` in one piece, and
 * still spends three tokens on it): on natural text it reached at most 98% of the exact count.
 */
function pieceFloor(features: Float64Array): number {
  return (
    features[letterPiecesIndex]! +
    features[digitGroupsIndex]! +
    features[punctuationRunsIndex]! +
    features[lineBreaksIndex]! +
    features[spaceRunsIndex]! -
    features[attachedPiecesIndex]! -
    features[joinedPiecesIndex]!
  );
}

/** Settings of {@link createTextEstimator}. */
export interface TextEstimatorSettings {
  /** The tokenizer family to estimate. Default {@link o200kProfile} (OpenAI GPT-4o, GPT-4.1, GPT-5, o-series). */
  profile?: EstimatorProfile;
  /** Replaces the profile's safety factor. */
  safetyFactor?: number;
  /**
   * Counts every text exactly, through the profile's `vocabularies` (the tokenizer's count times the safety
   * factor). Default true when the profile names vocabularies, as every shipped one does: that keeps the
   * guarantee by construction (never more than 5% under; with the OpenAI profiles, exact), about as fast as
   * the features on agents' English and code (see the package README). False counts by the fitted features
   * instead, as a profile without vocabularies always does: no vocabulary is loaded (tens of milliseconds and a
   * few megabytes), and text unlike the fit's corpus can come out more than 5% under.
   */
  vocabulary?: boolean;
}

/**
 * Counts the tokens of plain strings. The same shape as the `name` and `countText` of `@compaction/core`'s
 * `TokenEstimator`, which adds the counting of whole messages on top.
 */
export interface TextEstimator {
  /** A short name for reports: `fast:` and the profile's name, or `features:` and it when counting by the features. */
  readonly name: string;
  /** Estimated tokens of a string: 0 for the empty string, at least 1 for any other. */
  countText(text: string): number;
}

/**
 * The fast estimator of text. By default every text is counted exactly by the profile's tokenizers (its
 * `vocabularies`, held as fingerprints: byte-pair merges in the package, no tokenizer installed), times the
 * safety factor, tens of times faster than tiktoken: the pieces of ASCII text are found and looked up in
 * WebAssembly, and most are counts remembered from earlier text. With `vocabulary: false`, or a profile without
 * vocabularies, it is one pass that counts what drives real tokenizers (letters, word pieces, capitals, the rare
 * letter pairs of random text, digits, punctuation, whitespace runs, other scripts), weighted by a fitted
 * {@link EstimatorProfile}.
 *
 * On text counted by its features, adding text (before, after or inside it) never lowers the estimate by
 * more than one token with the shipped profiles; a larger `safetyFactor` scales that bound with it. The
 * exception is text that breaks a long repeated run (`yyyy…`, `{{{{…`, see `longRunTokensIndex` in
 * text-features.ts): the run's floor, which keeps it from being counted at a tenth of its tokens, can go with it
 * (up to about 32 tokens for each run broken). A text counted through the vocabulary follows the tokenizer,
 * which has no such bound (a letter can complete a word the vocabulary holds whole).
 *
 * @throws {InvalidEstimatorSettingsError} when a weight is negative or not a number, or the safety factor is
 * not a positive number.
 */
export function createTextEstimator(settings: TextEstimatorSettings = {}): TextEstimator {
  const profile = settings.profile ?? o200kProfile;
  const safetyFactor = settings.safetyFactor ?? profile.safetyFactor;
  const issues: EstimatorSettingsIssue[] = [];
  if (!(Number.isFinite(safetyFactor) && safetyFactor > 0)) {
    issues.push({ path: 'safetyFactor', message: `must be a positive number, got ${String(safetyFactor)}` });
  }
  for (const feature of textFeatureNames) {
    const weight = profile.weights[feature] ?? 0;
    if (!(Number.isFinite(weight) && weight >= 0)) {
      issues.push({
        path: `profile.weights.${feature}`,
        message: `must be a number >= 0, got ${String(weight)}`,
      });
    }
  }
  if (issues.length > 0) throw new InvalidEstimatorSettingsError(issues);
  const weights = new Float64Array(textFeatureCount);
  textFeatureNames.forEach((feature, index) => {
    weights[index] = (profile.weights[feature] ?? 0) * safetyFactor;
  });
  // One scratch buffer per estimator: counting is synchronous, so it is never shared by two calls at once.
  const features = new Float64Array(measuredCount);
  const encodings: readonly EncodingName[] =
    settings.vocabulary === false ? [] : (profile.vocabularies ?? []);
  // Loaded on the first text (decoding one takes tens of milliseconds), then kept.
  let vocabularies: Vocabulary[] | undefined;
  const exactCounts = new RememberedCounts();
  const countExactly = (text: string): number => {
    vocabularies ??= encodings.map(loadVocabulary);
    let exact = 0;
    for (const vocabulary of vocabularies) exact = Math.max(exact, vocabulary.countText(text));
    return Math.max(1, Math.ceil(exact * safetyFactor));
  };

  return {
    name: `${encodings.length > 0 ? 'fast' : 'features'}:${profile.name}`,
    countText(text: string): number {
      if (text.length === 0) return 0;
      // The remembered count first: a text the proxy or the Compactor sends again costs one lookup.
      if (encodings.length > 0) return exactCounts.count(text, () => countExactly(text));
      measureText(text, features);
      let tokens = 0;
      for (let index = 0; index < textFeatureCount; index++) tokens += features[index]! * weights[index]!;
      // Never fewer than the pieces the tokenizers' pre-tokenizers cut the text into (see pieceFloor): the fitted
      // weights price a word at its average, which short words, identifiers and numbers in lists are above.
      tokens = Math.max(tokens, pieceFloor(features) * safetyFactor);
      // Long repeated runs, which the fitted features count far too low: their floors, a token each.
      tokens += features[longRunTokensIndex]! * safetyFactor;
      // Any non-empty text is at least one token.
      return Math.max(1, Math.ceil(tokens));
    },
  };
}
