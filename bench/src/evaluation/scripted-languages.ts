import { summaryLanguageCodes, summaryLanguages } from '@compaction/strategy-summarization';
import type { ExpectedLanguage } from './language-probe.js';

/** A language the scripted summarizer answers in: its section headings and its sentence saying nothing. */
export interface ScriptedLanguage {
  code: string;
  headings: readonly string[];
  noDetail: string;
  /** The heading of the artifact trail in the language, without the `## `. */
  trailHeading?: string;
}

/** "Recorded by a scripted summarizer: no detail of the conversation." in each language it answers in. */
export const noDetailSentences: Readonly<Record<string, string>> = {
  en: 'Recorded by a scripted summarizer: no detail of the conversation.',
  zh: '由脚本化的摘要器记录：不含对话的任何细节。',
  ja: 'スクリプトの要約器による記録：会話の詳細は含まれていません。',
  ko: '스크립트 요약기가 기록함: 대화의 세부 내용은 없음.',
  es: 'Registrado por un resumidor programado: ningún detalle de la conversación.',
  de: 'Von einem geskripteten Zusammenfasser erstellt: kein Detail des Gesprächs.',
  fr: 'Écrit par un résumeur scripté : aucun détail de la conversation.',
  pt: 'Registrado por um resumidor roteirizado: nenhum detalhe da conversa.',
  ru: 'Записано сценарным суммаризатором: никаких подробностей разговора.',
};

/** The languages the scripted summarizer answers in: every language the summarization strategy writes in. */
export const scriptedLanguages: readonly ScriptedLanguage[] = summaryLanguageCodes.map((code) => {
  const language = summaryLanguages[code];
  return {
    code,
    headings: language.sections.map((section) => section.heading),
    noDetail: noDetailSentences[code] ?? noDetailSentences.en!,
    trailHeading: language.trail.heading.replace(/^##\s*/, ''),
  };
});

/** What the language probe expects of a summary in `code`, or undefined when the strategy has no such language. */
export function expectedLanguage(code: string): ExpectedLanguage | undefined {
  const language = scriptedLanguages.find((candidate) => candidate.code === code);
  if (language === undefined) return undefined;
  const trailHeadings = scriptedLanguages.flatMap((candidate) => candidate.trailHeading ?? []);
  return {
    code,
    headings: [...language.headings, ...(language.trailHeading === undefined ? [] : [language.trailHeading])],
    trailHeadings,
  };
}
