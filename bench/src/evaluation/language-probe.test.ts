import type { Message } from '@compaction/core';
import { loadTranscripts, transcriptsDirectory } from '@compaction/testing/transcripts';
import { describe, expect, it } from 'vitest';
import { assistant, user } from './__fixtures__/messages.js';
import { checkSummaryLanguage, detectLanguage, type ExpectedLanguage } from './language-probe.js';
import { noDetailSentences } from './scripted-languages.js';
import { askedLanguage, scriptedSummaryIn } from './scripted-summarizer.js';
import { taskTranslations } from './task-translations.js';
import { translateUserTurns } from './translate-transcript.js';
import { translatedTranscript } from './working-state.js';

const chinese: ExpectedLanguage = {
  code: 'zh',
  headings: ['目标与约束', '下一步', '工件记录'],
  trailHeadings: ['Artifact trail', '工件记录'],
};

const summary = (text: string): Message => ({
  role: 'user',
  content: [{ type: 'text', text }],
  metadata: { compaction: { kind: 'summary' } },
});

describe('detectLanguage', () => {
  it('tells the languages apart by script, and Latin ones by their common words', () => {
    expect(
      detectLanguage('目标是修复解析器中的错误，并且为 `parse()` 添加一个新的测试用例来覆盖这种情况。'),
    ).toBe('zh');
    expect(
      detectLanguage('パーサーのエラーを修正して、新しいテストを追加する必要があります。これは重要です。'),
    ).toBe('ja');
    expect(detectLanguage('Нужно исправить ошибку в парсере и добавить новый тест для этого случая.')).toBe(
      'ru',
    );
    expect(
      detectLanguage('Hay que corregir el error del analizador y añadir una prueba para la función.'),
    ).toBe('es');
    expect(detectLanguage('The goal is to fix the error in the parser and to add a test for it.')).toBe('en');
  });

  it('leaves paths, code and short texts unjudged', () => {
    expect(detectLanguage('src/parser.py tests/test_parser.py `python -m pytest`')).toBe('unknown');
    expect(detectLanguage('修复')).toBe('unknown');
  });
});

describe('checkSummaryLanguage', () => {
  const sections = (heading: string, body: string) => `## ${heading}\n${body}`;

  it('matches a summary whose headings and prose are the user’s language', () => {
    const text = [
      '[Summary of 12 earlier messages, compaction round 1]',
      sections('目标与约束', noDetailSentences.zh!),
      sections('下一步', noDetailSentences.zh!),
      '## 工件记录\n已修改：src/parser.py\n- python -m pytest tests/test_parser.py -k "the test of the thing"',
    ].join('\n\n');
    expect(checkSummaryLanguage([user('修复'), summary(text), assistant('好')], chinese)).toEqual({
      summarized: true,
      detected: 'zh',
      headings: ['目标与约束', '下一步', '工件记录'],
      match: true,
    });
  });

  it('does not match an English summary, English headings over the user’s prose, or no summary', () => {
    const english = `## Goals and constraints\n${noDetailSentences.en}\n\n## Next step\n${noDetailSentences.en}`;
    expect(checkSummaryLanguage([summary(english)], chinese)).toMatchObject({ detected: 'en', match: false });
    const mixed = `## Goals and constraints\n${noDetailSentences.zh}\n\n## Next step\n${noDetailSentences.zh}`;
    expect(checkSummaryLanguage([summary(mixed)], chinese)).toMatchObject({ detected: 'zh', match: false });
    const wrongProse = `## 目标与约束\n${noDetailSentences.en}\n\n## 下一步\n${noDetailSentences.en}`;
    expect(checkSummaryLanguage([summary(wrongProse)], chinese).match).toBe(false);
    expect(checkSummaryLanguage([user('修复'), assistant('好')], chinese)).toMatchObject({
      summarized: false,
      match: false,
    });
  });

  it('judges an artifact trail alone by its heading', () => {
    expect(checkSummaryLanguage([summary('## 工件记录\n已修改：a.py')], chinese).match).toBe(true);
    expect(checkSummaryLanguage([summary('## Artifact trail\nEdited: a.py')], chinese).match).toBe(false);
  });
});

describe('the scripted summarizer', () => {
  it('answers in the language whose sections the request lists last', () => {
    const languages = [
      { code: 'en', headings: ['Goals', 'Next step'], noDetail: noDetailSentences.en! },
      { code: 'es', headings: ['Objetivos', 'Siguiente paso'], noDetail: noDetailSentences.es! },
    ];
    const request = 'Earlier summary:\n## Goals\nx\n\nWrite these sections:\n## Objetivos\n## Siguiente paso';
    expect(askedLanguage(request, languages).code).toBe('es');
    expect(askedLanguage('no sections here', languages).code).toBe('en');
    expect(scriptedSummaryIn(languages[1]!)).toBe(
      `## Objetivos\n${noDetailSentences.es}\n\n## Siguiente paso\n${noDetailSentences.es}`,
    );
  });
});

describe('translateUserTurns', () => {
  const task = [
    'Consider the following PR description:',
    '<pr_description>',
    '```bash',
    'Description',
    '```',
    '  Description',
    'A line the table does not hold.',
  ].join('\n');

  it('translates the prose of user turns by the table, and leaves code, tags and other messages alone', () => {
    const messages = [user(task), assistant('Description')];
    const before = structuredClone(messages);
    const translated = translateUserTurns(messages, 'es');
    expect(messages).toEqual(before);
    expect(translated.messages[1]).toBe(messages[1]);
    expect(translated.messages[0]!.content).toEqual([
      {
        type: 'text',
        text: [
          'Considera la siguiente descripción del PR:',
          '<pr_description>',
          '```bash',
          'Description',
          '```',
          '  Descripción',
          'A line the table does not hold.',
        ].join('\n'),
      },
    ]);
    expect(translated.translated).toBe(2);
    expect(translated.untranslated).toEqual(['A line the table does not hold.']);
  });

  it('holds a translation of every line in both languages', () => {
    for (const line of taskTranslations) {
      expect(line.zh.length, line.en).toBeGreaterThan(0);
      expect(detectLanguage(`${line.zh} ${line.zh} ${line.zh}`), line.zh).not.toBe('en');
    }
  });
});

const directory = transcriptsDirectory();

describe.skipIf(directory === undefined)(`the translated transcript (${translatedTranscript})`, () => {
  it('has every prose line of its user turns in the table', () => {
    const transcript = loadTranscripts({ sources: ['mini-swe-agent'] }).find(
      (candidate) => candidate.name === translatedTranscript,
    )!;
    for (const language of ['zh', 'es'] as const) {
      const translated = translateUserTurns(transcript.messages, language);
      expect(translated.untranslated).toEqual([]);
      expect(translated.translated).toBeGreaterThan(60);
    }
  });
});
