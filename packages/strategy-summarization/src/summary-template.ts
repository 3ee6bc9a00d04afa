import { InvalidOptionsError } from '@compaction/core';
import { english } from './languages/english.js';
import type { SummaryLanguage } from './languages/summary-language.js';

/** The sections of the default (English) summary, in order. A summary without one of them is rejected as malformed. */
export const defaultSummarySections: readonly string[] = english.sections.map((section) => section.heading);

/** The placeholders a template may use. */
export const templatePlaceholders = [
  'conversation',
  'previousSummary',
  'artifactTrail',
  'instructions',
  'round',
] as const;

/** A placeholder name. */
export type TemplatePlaceholder = (typeof templatePlaceholders)[number];

/**
 * The summarizer prompt in a language: a handover summary with the language's fixed sections. Every language
 * is built the same way from its texts, so the sections mean the same in each.
 */
export function summaryTemplateOf(language: SummaryLanguage): string {
  const { prompt } = language;
  const sections = language.sections.map((section) => `## ${section.heading}\n${section.description}`);
  return [
    prompt.purpose,
    `${prompt.previousSummary}\n<previous-summary>\n{{previousSummary}}\n</previous-summary>`,
    `${prompt.conversation}\n<conversation>\n{{conversation}}\n</conversation>`,
    `${prompt.artifactTrail}\n<artifact-trail>\n{{artifactTrail}}\n</artifact-trail>`,
    prompt.instructions,
    `${prompt.format}\n${sections.join('\n')}`,
    prompt.closing,
  ].join('\n\n');
}

/** The default summarizer prompt, in English: a handover summary with fixed sections. */
export const defaultSummaryTemplate = summaryTemplateOf(english);

/** Fills a template's `{{name}}` placeholders. */
export function renderTemplate(template: string, values: Record<TemplatePlaceholder, string>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) =>
    (templatePlaceholders as readonly string[]).includes(name) ? values[name as TemplatePlaceholder] : match,
  );
}

/** Checks a user template: it must place `{{conversation}}` and use only known placeholders. */
export function checkTemplate(template: string): void {
  const issues: { path: string; message: string }[] = [];
  const used = [...template.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]!);
  if (!used.includes('conversation')) {
    issues.push({ path: 'template', message: 'must contain the {{conversation}} placeholder' });
  }
  for (const name of used) {
    if (!(templatePlaceholders as readonly string[]).includes(name)) {
      issues.push({
        path: 'template',
        message: `unknown placeholder {{${name}}} (known: ${templatePlaceholders.join(', ')})`,
      });
    }
  }
  if (issues.length > 0) throw new InvalidOptionsError({ subject: 'strategy "summarization"', issues });
}
