import { looksLikeAnotherLanguage } from './ascii-language-sample.js';
import { textFeatureNames } from './text-features.js';
import type { Vocabulary } from './vocabulary/vocabulary.js';

/**
 * Which texts the fitted features cannot be trusted with, so the estimator counts them through the
 * tokenizer's vocabulary instead. The features were fitted on English and code, and measured on everything
 * else: nothing in one pass over the letters tells an Italian or Indonesian word from an English one (the
 * vocabulary holds most English words whole and splits most of theirs into two to four tokens), and no
 * single price per letter of another script is right for both a language the tokenizer merges well (Russian in
 * o200k, about a quarter of a token a letter) and one it hardly merges (up to two tokens a letter). The
 * vocabulary is right for all of them.
 */

/** Features that count letters outside ASCII, by script: any of them is enough. */
const scriptLetterFeatures = [
  'accentedLetters',
  'cyrillicLetters',
  'arabicLetters',
  'indicLetters',
  'hangulLetters',
  'cjk',
].map((feature) => textFeatureNames.indexOf(feature as (typeof textFeatureNames)[number]));

/** Features that count characters outside ASCII that may or may not be letters: symbols, emoji, rarer scripts. */
const otherFeatures = ['otherNonAscii', 'surrogates'].map((feature) =>
  textFeatureNames.indexOf(feature as (typeof textFeatureNames)[number]),
);

/**
 * A letter, mark or digit outside ASCII: the text is written, at least in part, in another language or
 * script. Symbols and emoji alone do not count: their features are bounds (what each costs at most), which
 * keep an estimate over, never under.
 */
const letterOutsideAscii = /(?!\p{ASCII})[\p{L}\p{M}\p{N}]/u;

/** ASCII texts shorter than this are counted by their features: too few words to sample, too few tokens to matter. */
export const minimumSampledLength = 256;

/** One character is sampled at each step of this many characters for the share of letters and digits. */
const characterStep = 7;

/**
 * The share of letters and digits under which an ASCII text is mostly whitespace and punctuation. The features
 * price a piece of them as one or two tokens; runs that mix them (`\t \n  \t`, `});]]=>`) cost a token a
 * character or more, which only the vocabulary knows. Code, JSON, logs and prose are from half to four fifths
 * letters and digits.
 */
const wordCharacterShare = 0.4;

/** Whether a text must be counted through the vocabulary rather than by its features, `measureText`'s counts. */
export function needsVocabulary(
  text: string,
  features: Float64Array,
  samplers: () => readonly Vocabulary[],
): boolean {
  // The features were read first (measureText): most texts are decided by them and a few reads more.
  if (scriptLetterFeatures.some((index) => features[index]! > 0)) return true;
  if (otherFeatures.some((index) => features[index]! > 0) && letterOutsideAscii.test(text)) return true;
  if (text.length < minimumSampledLength) return false;
  if (isMostlyPunctuation(text) || mixesWhitespace(text)) return true;
  // A profile of several tokenizers (Anthropic's) takes the vocabulary when any of them would.
  return samplers().some((vocabulary) => looksLikeAnotherLanguage(text, vocabulary));
}

/**
 * Blanks of different kinds side by side: a space before a tab or a line feed, a tab before a space. The
 * tokenizers merge runs of one blank well and mixed runs poorly (a token a character or so), and the features
 * count a run as one or two. Text written by people and code indented one way have none or a few (in the shared
 * transcripts, 95% of texts of 256 characters and more have none, 99% under 4 in 1,000 characters).
 */
const mixedBlanks = / \t|\t | \n/g;

/** Whether a text has more than 4 mixed blanks in 1,000 characters. */
function mixesWhitespace(text: string): boolean {
  // Most text has no tab and no space at the end of a line: two native searches say so.
  if (text.indexOf('\t') === -1 && text.indexOf(' \n') === -1) return false;
  const needed = Math.max(4, Math.ceil((text.length * 4) / 1000));
  mixedBlanks.lastIndex = 0;
  let found = 0;
  while (mixedBlanks.exec(text) !== null) {
    if (++found >= needed) return true;
  }
  return false;
}

/** Samples one character in seven: whether fewer than two in five are letters or digits. */
function isMostlyPunctuation(text: string): boolean {
  let sampled = 0;
  let wordCharacters = 0;
  for (let index = 3; index < text.length; index += characterStep) {
    sampled++;
    const code = text.charCodeAt(index) | 32;
    if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57)) wordCharacters++;
  }
  return wordCharacters < sampled * wordCharacterShare;
}
