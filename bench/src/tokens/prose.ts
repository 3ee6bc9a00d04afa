/** Prose for the corpus: English sentences, and sentences in ten other languages from their word lists. */
import {
  arabicWords,
  frenchWords,
  germanWords,
  hindiWords,
  russianWords,
  spanishWords,
  traditionalChineseWords,
} from './languages.js';
import type { Random } from './random.js';
import {
  adjectives,
  chineseWords,
  functionWords,
  japanesePhrases,
  koreanWords,
  nouns,
  verbs,
} from './vocabulary.js';

export function englishSentence(random: Random): string {
  const words: string[] = [];
  const count = random.integer(6, 24);
  for (let index = 0; index < count; index++) {
    const roll = random.next();
    let word =
      roll < 0.45
        ? random.pick(functionWords)
        : roll < 0.7
          ? random.pick(nouns)
          : roll < 0.85
            ? random.pick(verbs)
            : roll < 0.89
              ? random.pick(adjectives)
              : roll < 0.97
                ? rareWord(random)
                : String(random.integer(1, random.pick([12, 100, 2026, 100000])));
    if (index > 2 && random.chance(0.08)) word += ',';
    if (random.chance(0.02)) word = `"${word}"`;
    if (random.chance(0.015)) word = `(${word})`;
    words.push(word);
  }
  return capitalized(words.join(' ')) + random.pick(['.', '.', '.', '.', '?', '!', ':', ';']);
}

const syllables =
  'ka lan gal mor tri ven sho dra pel qui zor ith um ex ba ro ne fi tu lem gra ssa ong cur wy oth pha'.split(
    ' ',
  );

/**
 * A made-up word of two to four syllables, standing for the names, borrowings and rare words of real prose
 * (`galangal`, `Nittaya`), which tokenizers split into several pieces where common words are one token.
 */
export function rareWord(random: Random): string {
  const parts = Array.from({ length: random.integer(2, 4) }, () => random.pick(syllables));
  const word = parts.join('');
  return random.chance(0.3) ? word[0]!.toUpperCase() + word.slice(1) : word;
}

export function englishParagraph(random: Random): string {
  const sentences: string[] = [];
  const count = random.integer(2, 8);
  for (let index = 0; index < count; index++) sentences.push(englishSentence(random));
  const text = sentences.join(' ');
  return random.chance(0.15) ? `## ${englishSentence(random).slice(0, 40)}\n\n${text}` : text;
}

/** How one language strings words into sentences. */
interface Language {
  words: readonly string[];
  /** Between words: a space, or nothing for Chinese and Japanese. */
  space: string;
  comma: string;
  /** Sentence ends, the first the most common. */
  ends: readonly string[];
}

const spaced = (words: readonly string[], ends = ['.', '.', '?', '!']): Language => ({
  words,
  space: ' ',
  comma: ',',
  ends,
});

/** The languages of the prose classes other than English. */
export const languages = {
  french: spaced(frenchWords),
  german: spaced(germanWords),
  spanish: spaced(spanishWords),
  russian: spaced(russianWords),
  arabic: { words: arabicWords, space: ' ', comma: '،', ends: ['.', '.', '؟'] },
  hindi: spaced(hindiWords, ['।', '।', '?']),
  'chinese-simplified': { words: chineseWords, space: '', comma: '，', ends: ['。', '。', '？', '！'] },
  'chinese-traditional': {
    words: traditionalChineseWords,
    space: '',
    comma: '，',
    ends: ['。', '。', '？', '！'],
  },
  japanese: { words: japanesePhrases, space: '', comma: '、', ends: ['。', '。', '？'] },
  korean: spaced(koreanWords),
} satisfies Record<string, Language>;

export type LanguageName = keyof typeof languages;

/** A paragraph of two to six sentences in `language`, now and then with a number or a quoted term. */
export function languageParagraph(random: Random, language: Language): string {
  const sentences: string[] = [];
  for (let count = random.integer(2, 6); count > 0; count--) {
    const words: string[] = [];
    for (let index = random.integer(5, 18); index > 0; index--) {
      const roll = random.next();
      if (roll < 0.03) words.push(String(random.integer(1, 2026)));
      else if (roll < 0.045) words.push(`"${random.pick(language.words)}"`);
      else words.push(random.pick(language.words));
      if (index > 1 && random.chance(0.08)) words.push(language.comma);
    }
    const text = words.join(language.space).replaceAll(` ${language.comma}`, language.comma);
    sentences.push(capitalized(text) + random.pick(language.ends));
  }
  return sentences.join(language.space);
}

function capitalized(text: string): string {
  return text[0]!.toUpperCase() + text.slice(1);
}
