import { chinese } from './chinese.js';
import { english } from './english.js';
import { french } from './french.js';
import { german } from './german.js';
import { japanese } from './japanese.js';
import { korean } from './korean.js';
import { portuguese } from './portuguese.js';
import { russian } from './russian.js';
import { spanish } from './spanish.js';
import type { SummaryLanguage } from './summary-language.js';

/** The codes of the languages a summary can be written in. */
export type SummaryLanguageCode = 'en' | 'zh' | 'ja' | 'ko' | 'es' | 'de' | 'fr' | 'pt' | 'ru';

/** The languages a summary can be written in, by BCP-47 primary subtag. */
export const summaryLanguages: Readonly<Record<SummaryLanguageCode, SummaryLanguage>> = {
  en: english,
  zh: chinese,
  ja: japanese,
  ko: korean,
  es: spanish,
  de: german,
  fr: french,
  pt: portuguese,
  ru: russian,
};

/** The shipped language codes, English first. */
export const summaryLanguageCodes = Object.keys(summaryLanguages) as SummaryLanguageCode[];

/**
 * The shipped language of a BCP-47 tag, read by its primary subtag and case-insensitively (`zh-CN`, `pt-BR`
 * and `ZH` are `zh`, `pt` and `zh`), or `undefined` when it is not shipped.
 */
export function summaryLanguageOf(tag: string): SummaryLanguage | undefined {
  const primary = tag.trim().split(/[-_]/)[0]!.toLowerCase();
  return Object.hasOwn(summaryLanguages, primary)
    ? summaryLanguages[primary as SummaryLanguageCode]
    : undefined;
}
