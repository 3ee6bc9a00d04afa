import type { Vocabulary } from './vocabulary/vocabulary.js';

/**
 * Whether an ASCII text reads as something other than English prose or code, from a sample of its words: the
 * fast features were fitted on English and code, and price other languages written in plain Latin letters
 * (Indonesian, Basque, German without its umlauts) up to a third under. Two signs, either enough:
 *
 * - **Words the vocabulary does not hold whole.** The features price English's own rare words (the fit saw
 *   English with 3 to 9% of its longer words outside the vocabulary); every ten points more cost about five
 *   percent of the count. In the shared transcripts (English and code), 90% of texts of 256 characters and more
 *   sample under 9% in o200k.
 * - **Prose without English's function words.** Running text in any language is mostly short words between
 *   spaces, and in English about half of them are `the`, `of`, `and`, `to`, `is`...; in another language almost
 *   none are, even where the vocabulary holds most of its words whole (Indonesian in o200k: 5 to 9% unknown,
 *   and still counted 7 to 10% under).
 *
 * A word is a space, two or more lowercase letters, then a space, line feed, end of text or one of `,.;:!?`.
 * About 40 words are read, one every 32 characters or more: jumping costs a few character reads a step, well
 * under the feature scan's.
 */
export function looksLikeAnotherLanguage(text: string, vocabulary: Vocabulary): boolean {
  let steps = 0;
  let words = 0;
  let functionWords = 0;
  let checked = 0;
  let unknown = 0;
  let position = 0;
  // About 40 words a text whatever its length: the cost stays that of a few hundred character reads.
  const step = Math.max(minimumStep, Math.floor(text.length / wordsPerText));
  while (position < text.length) {
    // The native search for one character is what keeps sampling cheap.
    const start = text.indexOf(' ', position);
    if (start === -1) break;
    const first = text.charCodeAt(start + 1);
    if (first < 97 || first > 122) {
      position = start + 1;
      continue;
    }
    steps++;
    let end = start + 1;
    let hash = 0;
    while (end < text.length) {
      const code = text.charCodeAt(end);
      if (code < 97 || code > 122) break;
      hash = (Math.imul(hash, 31) + code) | 0;
      end++;
    }
    if (end - start > 2 && (end === text.length || endsWord(text.charCodeAt(end)))) {
      words++;
      if (functionWordHashes.has(hash)) functionWords++;
      if (end - start > 4) {
        checked++;
        // The space is the first character of the word's piece.
        if (!vocabulary.holdsAscii(text, start, end)) unknown++;
      }
    }
    position = Math.max(end, start + step);
  }
  if (checked >= minimumChecked && unknown > checked * unknownWordShare) return true;
  // Prose: most spaces before a lowercase letter start a word. English prose has 40 to 60% function words,
  // code and logs 5 to 30%.
  return words >= minimumWords && words >= steps * proseShare && functionWords < words * functionWordShare;
}

const minimumStep = 32;
const wordsPerText = 40;
/** Words of four letters or more checked against the vocabulary before their share decides anything. */
const minimumChecked = 8;
const unknownWordShare = 0.1;
/** Words read before the share of function words decides anything. */
const minimumWords = 12;
/** The share of steps that found a word, above which the text is running prose. */
const proseShare = 0.6;
const functionWordShare = 0.05;

/** A space, a line feed or one of `,.;:!?` ends a word of prose. */
function endsWord(code: number): boolean {
  return (
    code === 32 ||
    code === 10 ||
    code === 44 ||
    code === 46 ||
    code === 59 ||
    code === 58 ||
    code === 33 ||
    code === 63
  );
}

/** The commonest short words of English, which make up about half of its running text. */
const functionWords = [
  'the',
  'of',
  'and',
  'to',
  'in',
  'is',
  'that',
  'for',
  'it',
  'with',
  'as',
  'was',
  'on',
  'be',
  'by',
  'this',
  'are',
  'from',
  'or',
  'an',
  'at',
  'not',
  'have',
  'has',
  'you',
  'we',
  'can',
  'will',
  'if',
  'but',
  'which',
  'its',
  'all',
  'when',
  'there',
  'their',
  'they',
  'been',
  'would',
  'should',
  'into',
  'more',
  'than',
  'other',
  'only',
  'also',
  'these',
  'some',
  'what',
  'so',
  'no',
  'do',
  'does',
  'each',
  'one',
  'may',
  'a',
  'i',
  'he',
  'she',
  'his',
  'her',
  'our',
  'your',
  'my',
  'me',
  'us',
  'them',
  'were',
  'had',
  'who',
  'how',
  'then',
  'out',
  'up',
  'about',
  'any',
  'just',
  'now',
  'new',
  'get',
  'like',
  'here',
  'where',
  'after',
  'before',
  'because',
];

const functionWordHashes = new Set(
  functionWords.map((word) => {
    let hash = 0;
    for (let index = 0; index < word.length; index++)
      hash = (Math.imul(hash, 31) + word.charCodeAt(index)) | 0;
    return hash;
  }),
);
