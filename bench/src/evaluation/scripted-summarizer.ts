import { type Provider, textOf } from '@compaction/core';
import { defaultSummarySections } from '@compaction/strategy-summarization';
import { createMockProvider } from '@compaction/testing';
import { type ScriptedLanguage, scriptedLanguages } from './scripted-languages.js';

/** The scripted summary in a language: each of its sections with a sentence saying it holds nothing. */
export function scriptedSummaryIn(language: ScriptedLanguage): string {
  return language.headings.map((heading) => `## ${heading}\n${language.noDetail}`).join('\n\n');
}

/**
 * The fixed answer of the scripted summarizer: every section the summarization strategy requires, and no fact
 * from the conversation. Whatever the summarizing policies retain therefore comes from what they keep
 * verbatim and from what they record without the model (such as the artifact trail), never from the model.
 */
export const scriptedSummary = scriptedSummaryIn({
  code: 'en',
  headings: defaultSummarySections,
  noDetail: 'Recorded by a scripted summarizer: no detail of the conversation.',
});

/**
 * The language a summarizer request asks for: the one whose first section heading (`## Goals and
 * constraints`, `## 目标与约束`) comes last in the request, since the list of sections follows the
 * conversation; English when none is found.
 */
export function askedLanguage(
  requestText: string,
  languages: readonly ScriptedLanguage[] = scriptedLanguages,
): ScriptedLanguage {
  let asked = languages.find((language) => language.code === 'en') ?? languages[0]!;
  let position = -1;
  for (const language of languages) {
    const at = requestText.lastIndexOf(`## ${language.headings[0]}`);
    if (at > position) [asked, position] = [language, at];
  }
  return asked;
}

/**
 * A deterministic summarizer: answers every request with the scripted summary in the language the request
 * asks for ({@link askedLanguage}): the same sections and sentence for the same language, whatever the
 * conversation. Each call goes to a fresh one-answer mock provider, so there is no limit on the number of
 * calls. It reports no usage, so the simulation's metered provider estimates the tokens of each call.
 */
export function createScriptedSummarizer(): Provider {
  const answering = (answer: string) =>
    createMockProvider({
      name: 'scripted-summarizer',
      modelId: 'scripted-summarizer',
      responses: [answer],
    });
  const provider = answering(scriptedSummary);
  return {
    ...provider,
    generate: (request) => {
      const language = askedLanguage(request.messages.map(textOf).join('\n'));
      return answering(scriptedSummaryIn(language)).generate(request);
    },
  };
}
