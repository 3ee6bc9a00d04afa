import type { SummaryLanguageCode } from './summary-languages.js';

type LatinLanguage = 'en' | 'es' | 'de' | 'fr' | 'pt';

/**
 * Frequent words of prose in each Latin-script language. Code is written in English words too, but rarely in
 * these: identifiers and paths leave them alone, so they say which language the prose around the code is in.
 * A word of several lists counts for each of them; the words of one list alone decide between them.
 */
const latinWords: Readonly<Record<LatinLanguage, string>> = {
  en: `the and of to is are was were this that these those with for it its not be been have has had you your
    we our they their there would will should could can please what which when where why how from but then
    into if or so also does do don't doesn't it's i'm let's make fix add use just now after before need want
    all any some only here about again still`,
  es: `el la los las del que y en un una unos unas por para con es se lo al como más pero sus ya este esta
    estos estas sí porque muy sin sobre también hay donde cuando todo todos ser son está están puedes puede
    hacer archivo archivos necesito quiero ahora después pruebas función arregla corrige añade usa error
    favor gracias entonces aquí otra vez falla funciona qué cómo`,
  de: `der die das und ist nicht ein eine einen zu den dem des mit von auf für sich im es auch ich du sie
    wir ihr sind bitte wird werden oder aber wenn dann noch nur kann muss diese dieser dieses datei dateien
    jetzt danach alle schon dass über beim zum zur mal bei wie warum fehler behebe test tests funktion
    ändere füge hinzu nach vor gibt`,
  fr: `le la les des du un une et est dans pour pas sur au aux avec ce cette ces il elle nous vous je ne
    sont ou mais plus fichier fichiers faire merci puis aussi être avoir très quand où ça c'est j'ai
    d'abord qui que peux peut corrige ajoute utilise erreur maintenant après avant tous toutes encore
    fonction pourquoi comment`,
  pt: `o os as do da dos das que e em no na nos nas um uma para com não é se por mais mas ao como isso este
    esta você também quando muito já está são ser pelo pela arquivo arquivos agora depois quero preciso
    testes fazer então onde corrija adicione use erro função obrigado obrigada pode aqui ainda porque`,
};

/** The languages each word belongs to. */
const languagesOfWord: ReadonlyMap<string, readonly LatinLanguage[]> = (() => {
  const map = new Map<string, LatinLanguage[]>();
  for (const [language, words] of Object.entries(latinWords) as [LatinLanguage, string][]) {
    for (const word of words.split(/\s+/)) {
      if (word.length === 0) continue;
      const languages = map.get(word) ?? [];
      if (!languages.includes(language)) languages.push(language);
      map.set(word, languages);
    }
  }
  return map;
})();

/** Letters only one or two of the Latin-script languages write. */
const diacritics: ReadonlyArray<{ letters: RegExp; languages: readonly LatinLanguage[] }> = [
  { letters: /[ñ¿¡]/, languages: ['es'] },
  { letters: /[ßäöü]/, languages: ['de'] },
  { letters: /[ãõ]/, languages: ['pt'] },
  { letters: /[èëïœùû]/, languages: ['fr'] },
  { letters: /[çâêô]/, languages: ['fr', 'pt'] },
  { letters: /[áíóú]/, languages: ['es', 'pt'] },
];

/** Below this much evidence, in words, the text says too little and the answer is English. */
const minimumEvidence = 2;

/**
 * The language a text is written in, among the shipped ones, from the Unicode scripts of its letters and,
 * for Latin script, its frequent words and diacritics. Han is Chinese unless kana is present (Japanese);
 * Hangul is Korean; Cyrillic is Russian. Code, paths and URLs are left out first. English when the text says
 * too little or two languages are level: it is the default, and its template asks for no language.
 */
export function detectLanguage(text: string): SummaryLanguageCode {
  return languageEvidence(text)?.language ?? 'en';
}

/**
 * The language a text shows (as {@link detectLanguage} reads it) and how much it shows, in words; `undefined`
 * when it shows none of the shipped languages clearly.
 */
export function languageEvidence(text: string): { language: SummaryLanguageCode; words: number } | undefined {
  const prose = proseOf(text);
  const han = countOf(prose, /\p{Script=Han}/gu);
  const kana = countOf(prose, /[\p{Script=Hiragana}\p{Script=Katakana}]/gu);
  const hangul = countOf(prose, /\p{Script=Hangul}/gu);
  const cyrillic = countOf(prose, /\p{Script=Cyrillic}+/gu);
  const latin = latinScores(prose);
  // Evidence in words: a word of Chinese or Japanese is about two characters, as is a Korean syllable run;
  // frequent words are about half of the words of Latin-script prose.
  const evidence: Array<[SummaryLanguageCode | 'latin', number]> = [
    [kana > 0 && kana >= 0.05 * (han + kana) ? 'ja' : 'zh', (han + kana) / 2],
    ['ko', hangul / 2],
    ['ru', cyrillic],
    // One frequent word alone says little: `il` is French, and Italian too.
    ['latin', latin.best >= 2 ? 2 * latin.best : 0],
  ];
  const [script, words] = evidence.reduce((best, item) => (item[1] > best[1] ? item : best));
  if (words < minimumEvidence) return undefined;
  if (script !== 'latin') return { language: script, words };
  return latin.language === undefined ? undefined : { language: latin.language, words };
}

/** The best Latin-script language by its evidence, none when two are level. */
function latinScores(prose: string): { language: LatinLanguage | undefined; best: number } {
  const scores: Record<LatinLanguage, number> = { en: 0, es: 0, de: 0, fr: 0, pt: 0 };
  for (const [word] of prose.toLowerCase().matchAll(/\p{Script=Latin}+(?:['’]\p{Script=Latin}+)?/gu)) {
    const normal = word.replace('’', "'");
    for (const language of languagesOfWord.get(normal) ?? []) scores[language] += 1;
    // French elides its articles and pronouns before a vowel: `l'erreur`, `d'abord`, `qu'il`.
    if (/^(?:l|d|j|c|qu|n|s|m|t)'/.test(normal)) scores.fr += 1;
    for (const { letters, languages } of diacritics) {
      if (letters.test(word)) for (const language of languages) scores[language] += 1;
    }
  }
  if (/[¿¡]/.test(prose)) scores.es += 1;
  const ranked = (Object.entries(scores) as [LatinLanguage, number][]).sort(
    (left, right) => right[1] - left[1],
  );
  const [[first, best], [, second]] = [ranked[0]!, ranked[1]!];
  return { language: best > second ? first : undefined, best };
}

/** The text without what is not prose: fenced and inline code, URLs, paths and file names. */
function proseOf(text: string): string {
  return text
    .replace(/```[\s\S]*?(?:```|$)/g, ' ')
    .replace(/`[^`\n]*`/g, ' ')
    .replace(/\b[a-z][\w+.-]*:\/\/[\w\-.~:/?#[\]@!$&'()*+,;=%]*/gi, ' ')
    .replace(/[\w.~@+-]*[/\\][\w.~@+/\\-]*/g, ' ')
    .replace(/[\w-]+\.[a-z]\w{0,4}\b/gi, ' ');
}

function countOf(text: string, pattern: RegExp): number {
  let count = 0;
  for (const _ of text.matchAll(pattern)) count++;
  return count;
}
