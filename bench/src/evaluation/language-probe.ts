import { compactionMetadataOf, type Message, textOf } from '@compaction/core';

/** What {@link detectLanguage} tells apart: the summarization strategy's languages, or `unknown`. */
export type DetectedLanguage = 'en' | 'es' | 'de' | 'fr' | 'pt' | 'zh' | 'ja' | 'ko' | 'ru' | 'unknown';

/** What a summary in the user's language looks like: the language, and every heading it may carry. */
export interface ExpectedLanguage {
  code: string;
  /** Its section headings and its artifact trail's heading, without the `## `. */
  headings: readonly string[];
  /**
   * The artifact trail's heading in every language, without the `## `: the trail is written without the model
   * (labels, then paths, commands and errors as the tools wrote them), so its block is not judged as prose.
   */
  trailHeadings: readonly string[];
}

/** The language probe of one compacted context. */
export interface LanguageCheck {
  /** Whether the context holds a summary at all. */
  summarized: boolean;
  /** The language of the summary's prose, `unknown` when it has too little (an artifact trail alone). */
  detected: DetectedLanguage;
  /** The summary's level-2 headings. */
  headings: string[];
  /** At least one heading, every one the expected language's, and the prose (where there is enough) in it. */
  match: boolean;
}

/**
 * Letters of prose, code and paths left out, below which the prose is not judged (a Chinese, Japanese or Korean
 * character counts as three).
 */
export const minimumProseLetters = 40;

/** Common short words of the Latin-script languages, which mark a text's language. */
const stopWords: Record<'en' | 'es' | 'de' | 'fr' | 'pt', ReadonlySet<string>> = {
  en: new Set('the of and to in is that it for was with on by no not be are this from what'.split(' ')),
  es: new Set('el la los las de del y en que un una por con para es no se lo al ningún'.split(' ')),
  de: new Set('der die das und ist nicht ein eine von zu den mit für auf dem des kein'.split(' ')),
  fr: new Set('le la les de des et est un une du en que pour pas au aux par aucun'.split(' ')),
  pt: new Set('o a os as de do da e em que um uma por com para não dos das nenhum'.split(' ')),
};

/**
 * The language of a text by its script, and for Latin script by which language's common short words it uses
 * most: kana is Japanese, Hangul Korean, Han without kana Chinese, Cyrillic Russian. Code (fenced and
 * inline), URLs and words with `/`, `.`, `_` or digits (paths, identifiers) are left out first; with fewer than
 * {@link minimumProseLetters} letters left, or no common word, the language is `unknown`.
 */
export function detectLanguage(text: string): DetectedLanguage {
  const prose = proseOf(text);
  const letters = [...prose.matchAll(/\p{L}/gu)].length;
  // A Chinese, Japanese or Korean character says about as much as a short Latin word: it weighs three letters.
  const wide = [
    ...prose.matchAll(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu),
  ].length;
  if (letters + 2 * wide < minimumProseLetters) return 'unknown';
  const share = (pattern: RegExp) => [...prose.matchAll(pattern)].length / letters;
  if (share(/[\p{Script=Hiragana}\p{Script=Katakana}]/gu) >= 0.05) return 'ja';
  if (share(/\p{Script=Hangul}/gu) >= 0.2) return 'ko';
  if (share(/\p{Script=Han}/gu) >= 0.2) return 'zh';
  if (share(/\p{Script=Cyrillic}/gu) >= 0.2) return 'ru';
  const words = prose.toLowerCase().match(/\p{L}+/gu) ?? [];
  let best: DetectedLanguage = 'unknown';
  let bestCount = 0;
  for (const [code, set] of Object.entries(stopWords)) {
    const count = words.filter((word) => set.has(word)).length;
    if (count > bestCount) [best, bestCount] = [code as DetectedLanguage, count];
  }
  return best;
}

/**
 * Whether the summary of a compacted context is in the user's language: its level-2 headings (the
 * summarizer's sections, the artifact trail's heading) are all the expected language's, and its prose, where
 * there is enough of it to judge, is detected as that language. A context without a summary does not match.
 */
export function checkSummaryLanguage(context: readonly Message[], expected: ExpectedLanguage): LanguageCheck {
  const summaries = context.filter((message) => compactionMetadataOf(message)?.kind === 'summary');
  if (summaries.length === 0) return { summarized: false, detected: 'unknown', headings: [], match: false };
  const text = summaries.map(textOf).join('\n');
  const headings = [...text.matchAll(/^##\s+(.+?)\s*$/gm)].map((match) => match[1]!);
  const detected = detectLanguage(modelProse(text, expected.trailHeadings));
  const allowed = new Set(expected.headings);
  const match =
    headings.length > 0 &&
    headings.every((heading) => allowed.has(heading)) &&
    (detected === 'unknown' || detected === expected.code);
  return { summarized: true, detected, headings, match };
}

/**
 * The lines of a summary the model wrote: without Compaction's header (`[Summary of ...]`, read by the engine),
 * the headings, and the artifact trail's block.
 */
function modelProse(text: string, trailHeadings: readonly string[]): string {
  const trail = new Set(trailHeadings);
  let inTrail = false;
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    const heading = /^##\s+(.+?)\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      inTrail = trail.has(heading);
      continue;
    }
    if (!inTrail && !/^\[.*\]$/.test(line.trim())) lines.push(line);
  }
  return lines.join('\n');
}

function proseOf(text: string): string {
  return text
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/`[^`\n]*`/g, ' ')
    .replace(/\bhttps?:\/\/\S+/g, ' ')
    .split(/\s+/)
    .filter((word) => !/[/._\d\\=<>{}()[\]$#|]/.test(word.replace(/[.,:;!?。，：；]+$/u, '')))
    .join(' ');
}
