import type { Message } from '@compaction/core';
import { conversationLanguage } from './languages/conversation-language.js';
import type { SummaryLanguage } from './languages/summary-language.js';
import { summaryLanguageOf, summaryLanguages } from './languages/summary-languages.js';
import type { ResolvedSummarizationOptions } from './summarization-options.js';
import type { RequiredSection } from './summary-failure.js';
import { summaryTemplateOf } from './summary-template.js';

/** What one compaction's summary is written in and checked against. */
export interface SummaryFormat {
  language: SummaryLanguage;
  template: string;
  requiredSections: readonly RequiredSection[];
}

/**
 * The summary's language (the `language` option, or the user's own with `auto`), its template (the user's,
 * or the default one in that language) and the sections it must have: the user's `requiredSections`, or with
 * the default template its sections, each under its name in any shipped language; none with a user template.
 */
export function summaryFormat(
  options: Pick<ResolvedSummarizationOptions, 'language' | 'template' | 'requiredSections'>,
  messages: readonly Message[],
): SummaryFormat {
  const language =
    options.language === 'auto'
      ? summaryLanguages[conversationLanguage(messages)]
      : (summaryLanguageOf(options.language) ?? summaryLanguages.en);
  const requiredSections =
    options.requiredSections?.map((name) => [name]) ??
    (options.template === undefined ? sectionsInEveryLanguage(language) : []);
  return { language, template: options.template ?? summaryTemplateOf(language), requiredSections };
}

/** The language's sections, each with its names in the other shipped languages after its own. */
function sectionsInEveryLanguage(language: SummaryLanguage): RequiredSection[] {
  const others = Object.values(summaryLanguages).filter((other) => other !== language);
  return language.sections.map((section, index) => [
    section.heading,
    ...others.map((other) => other.sections[index]!.heading),
  ]);
}
