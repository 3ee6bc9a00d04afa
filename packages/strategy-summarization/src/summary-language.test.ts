import {
  type CompactionInput,
  createTokenCounter,
  InvalidOptionsError,
  type Message,
  textOf,
} from '@compaction/core';
import { createMockProvider } from '@compaction/testing';
import { describe, expect, it } from 'vitest';
import { agentSteps, userMessage } from './__fixtures__/agent-session.js';
import { promptOf } from './__fixtures__/summaries.js';
import { createSummarization } from './create-summarization.js';
import { english } from './languages/english.js';
import type { SummaryLanguage } from './languages/summary-language.js';
import { type SummaryLanguageCode, summaryLanguages } from './languages/summary-languages.js';

/** What a user writing each language asks first and last, and a line of a summary in it. */
const conversations: Readonly<Record<SummaryLanguageCode, { task: string; newest: string; line: string }>> = {
  en: {
    task: 'Invoices round totals down; make them round half up and keep every invoice test passing.',
    newest: 'Now also update the changelog, please.',
    line: 'The rounding is fixed in three files.',
  },
  zh: {
    task: '发票的总额被向下取整了；请改成四舍五入，并保证所有发票测试都能通过。',
    newest: '现在请顺便更新一下变更日志。',
    line: '三个文件中的取整问题已经修复。',
  },
  ja: {
    task: '請求書の合計が切り捨てになっています。四捨五入に直して、請求書のテストがすべて通るようにしてください。',
    newest: '次に、変更履歴も更新してください。',
    line: '三つのファイルで丸め処理を修正しました。',
  },
  ko: {
    task: '청구서 합계가 내림 처리되고 있습니다. 반올림으로 바꾸고 청구서 테스트가 모두 통과하게 해 주세요.',
    newest: '이제 변경 기록도 업데이트해 주세요.',
    line: '세 파일에서 반올림 문제를 고쳤습니다.',
  },
  es: {
    task: 'Las facturas redondean los totales hacia abajo; haz que redondeen al más cercano y que todas las pruebas de facturas pasen.',
    newest: 'Ahora actualiza también el registro de cambios, por favor.',
    line: 'El redondeo está corregido en tres archivos.',
  },
  de: {
    task: 'Rechnungen runden die Summen ab; bitte sorge dafür, dass sie kaufmännisch runden und alle Rechnungstests weiter durchlaufen.',
    newest: 'Bitte aktualisiere jetzt auch das Änderungsprotokoll.',
    line: 'Die Rundung ist in drei Dateien behoben.',
  },
  fr: {
    task: "Les factures arrondissent les totaux vers le bas ; fais en sorte qu'elles arrondissent au plus proche et que tous les tests des factures passent.",
    newest: 'Mets aussi à jour le journal des modifications, maintenant.',
    line: "L'arrondi est corrigé dans trois fichiers.",
  },
  pt: {
    task: 'As faturas arredondam os totais para baixo; faça com que arredondem para o mais próximo e que todos os testes de faturas passem.',
    newest: 'Agora atualize também o registro de alterações, por favor.',
    line: 'O arredondamento foi corrigido em três arquivos.',
  },
  ru: {
    task: 'Счета округляют суммы вниз; сделай так, чтобы они округлялись по правилам, и чтобы все тесты счетов проходили.',
    newest: 'Теперь, пожалуйста, обнови ещё и журнал изменений.',
    line: 'Округление исправлено в трёх файлах.',
  },
};

const languages = Object.values(summaryLanguages);

/** A coding session whose user writes in the language; the tools' output is English, as it usually is. */
function sessionIn(code: SummaryLanguageCode): Message[] {
  const { task, newest } = conversations[code];
  return [
    { role: 'system', content: [{ type: 'text', text: 'You are a careful coding agent.' }] },
    userMessage(task),
    ...agentSteps(0, 18),
    userMessage(newest),
  ];
}

function inputFor(messages: Message[]): CompactionInput {
  const counter = createTokenCounter();
  const target = Math.floor(counter.estimate(messages) * 0.4);
  return { messages, counter, budget: { limit: target, target }, trigger: 'auto', round: 1 };
}

/** A summary in the language, under its headings, leaving out the sections at `missing`. */
function summaryIn(language: SummaryLanguage, missing: readonly number[] = []): string {
  const line = conversations[language.code as SummaryLanguageCode].line;
  return language.sections
    .filter((_, index) => !missing.includes(index))
    .map((section) => `## ${section.heading}\n${line}`)
    .join('\n');
}

describe.each(languages.map((language) => [language.name, language] as const))(
  'a conversation in %s',
  (_, language) => {
    const code = language.code as SummaryLanguageCode;

    it('is summarized in its language: the prompt, the accepted summary and its trail', async () => {
      const provider = createMockProvider({ responses: [summaryIn(language)] });
      const output = await createSummarization({ provider }).compact(inputFor(sessionIn(code)));
      const prompt = promptOf(provider.requests[0]!);
      for (const section of language.sections) expect(prompt).toContain(`## ${section.heading}\n`);
      expect(prompt).toContain(language.prompt.closing);
      expect(prompt).toContain(language.prompt.purpose);
      expect(output.details).not.toHaveProperty('fallback');
      const summary = output.summary ?? '';
      for (const section of language.sections) expect(summary).toContain(`## ${section.heading}`);
      expect(summary).toContain(conversations[code].line);
      expect(summary).toContain(language.trail.heading);
      expect(summary).toContain(language.trail.states.edited);
      // The first line stays as core reads it back, in every language.
      expect(summary).toMatch(/^\[Summary of \d+ earlier messages, compaction round 1;/);
    });

    it('rejects a summary that lacks a section, and falls back to a digest headed in the language', async () => {
      const provider = createMockProvider({
        responses: [summaryIn(language, [language.sections.length - 1])],
      });
      const output = await createSummarization({ provider }).compact(inputFor(sessionIn(code)));
      expect(output.details).toMatchObject({ fallback: 'extractive', reason: 'malformed' });
      expect((output.details as { failure: string }).failure).toContain(language.sections.at(-1)!.heading);
      const summary = output.summary ?? '';
      expect(summary).toContain(language.digest.task);
      expect(summary).toContain(conversations[code].task.slice(0, 20));
    });
  },
);

describe('the language option', () => {
  it('writes in the language it names, whatever the user writes; a region subtag reads as its language', async () => {
    for (const [option, language] of [
      ['zh', summaryLanguages.zh],
      ['pt-BR', summaryLanguages.pt],
      ['DE', summaryLanguages.de],
    ] as const) {
      const provider = createMockProvider({ responses: [summaryIn(language)] });
      const output = await createSummarization({ provider, language: option }).compact(
        inputFor(sessionIn('en')),
      );
      expect(promptOf(provider.requests[0]!)).toContain(language.prompt.closing);
      expect(output.details).not.toHaveProperty('fallback');
    }
  });

  it('refuses a language it does not ship, listing the shipped ones', () => {
    const attempt = () => createSummarization({ provider: createMockProvider(), language: 'it' });
    expect(attempt).toThrow(InvalidOptionsError);
    expect(attempt).toThrow(/unknown language "it".*en, zh, ja, ko, es, de, fr, pt, ru/);
  });

  it('accepts a complete summary whose headings are those of another shipped language', async () => {
    const provider = createMockProvider({ responses: [summaryIn(english)] });
    const output = await createSummarization({ provider }).compact(inputFor(sessionIn('zh')));
    expect(promptOf(provider.requests[0]!)).toContain(summaryLanguages.zh.prompt.closing);
    expect(output.details).not.toHaveProperty('fallback');
  });

  it('keeps a custom template as it is, with no required sections, and the trail in the language', async () => {
    const template = 'Summarize for the agent:\n{{conversation}}';
    const provider = createMockProvider({ responses: ['Les arrondis sont corrigés.'] });
    const output = await createSummarization({ provider, template }).compact(inputFor(sessionIn('fr')));
    expect(promptOf(provider.requests[0]!)).toMatch(/^Summarize for the agent:\n/);
    expect(output.details).not.toHaveProperty('fallback');
    expect(output.summary).toContain(summaryLanguages.fr.trail.heading);
  });
});

describe('the extractive fallback in the conversation language', () => {
  it('puts no English text around a Chinese conversation beyond its first line', async () => {
    const provider = createMockProvider({
      responses: [
        () => {
          throw new Error('the summarizer is down');
        },
      ],
    });
    const messages = sessionIn('zh');
    const output = await createSummarization({ provider }).compact(inputFor(messages));
    expect(output.details).toMatchObject({ fallback: 'extractive', reason: 'provider-error' });
    const [header, ...rest] = (output.summary ?? '').split('\n');
    expect(header).toMatch(/^\[Summary of \d+ earlier messages/);
    const digest = rest.join('\n');
    const chinese = summaryLanguages.zh;
    for (const heading of [chinese.digest.unavailable, chinese.digest.task, chinese.digest.latestRequest]) {
      expect(digest).toContain(heading);
    }
    expect(digest).toContain(conversations.zh.task);
    expect(digest).toContain(chinese.trail.heading);
    // None of the English fixed texts: the digest's, the trail's, or a note of omitted characters.
    const englishTexts = [
      ...Object.values(english.digest).filter((text) => text.length > 4),
      english.trail.heading,
      english.trail.commands,
      english.trail.errors,
      ...Object.values(english.trail.states),
      'characters omitted',
    ];
    for (const text of englishTexts) expect(digest).not.toContain(text);
    expect(textOf(output.messages[1]!)).toBe(output.summary);
  });
});
