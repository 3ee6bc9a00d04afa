import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectLanguage } from './detect-language.js';
import type { SummaryLanguageCode } from './summary-languages.js';

describe('detectLanguage', () => {
  it.each<[SummaryLanguageCode, string]>([
    ['en', 'Please fix the failing date parser in src/dates/parse.ts and make the tests pass.'],
    ['zh', '请修复 src/dates/parse.ts 中的日期解析错误，并让测试全部通过。'],
    ['zh', '把 parseDate 改成 async 的，然后跑一下 npm test'],
    ['ja', 'src/dates/parse.ts の日付パーサーを修正して、テストを通してください。'],
    ['ja', '設定ファイルを修正'],
    ['ko', 'src/dates/parse.ts의 날짜 파서를 고치고 테스트가 통과하게 해 주세요.'],
    ['ru', 'Исправь парсер дат в src/dates/parse.ts и сделай так, чтобы тесты проходили.'],
    ['es', 'Por favor, corrige el analizador de fechas en src/dates/parse.ts y haz que pasen las pruebas.'],
    ['de', 'Bitte behebe den Fehler im Datumsparser in src/dates/parse.ts, damit die Tests durchlaufen.'],
    ['fr', "Corrige l'analyseur de dates dans src/dates/parse.ts et fais passer les tests, s'il te plaît."],
    ['pt', 'Por favor, corrija o analisador de datas em src/dates/parse.ts e faça os testes passarem.'],
  ])('reads %s in %j', (code, text) => {
    expect(detectLanguage(text)).toBe(code);
  });

  it.each([
    ['an empty text', ''],
    ['code alone', '```ts\nexport const x = 1;\n```\n`npm test` src/app.ts https://example.com/a/b'],
    ['a single word of another script', '修复'],
    ['a short sentence of a language it does not ship', 'Per favore, sistema il parser.'],
    ['one frequent word alone', 'Merci'],
    ['words two languages share as much', 'la la'],
  ])('falls back to English on %s', (_, text) => {
    expect(detectLanguage(text)).toBe('en');
  });

  it('reads the prose, not the code, paths or links in it', () => {
    const code = '```python\nfor the_value in the_list:\n    print(the_value)\n```';
    expect(detectLanguage(`${code}\n请看这段代码为什么会报错，帮我修复它。`)).toBe('zh');
    expect(detectLanguage('Der Test in `the/path/of/the/file.ts` schlägt fehl, bitte prüfe das.')).toBe('de');
  });
});

/**
 * Words each shipped language writes and the others do not spell the same way (a Japanese word always has
 * kana, as Japanese sentences do): a text of them is that language, whatever their order or number.
 */
const vocabulary: Readonly<Record<SummaryLanguageCode, readonly string[]>> = {
  en: ['the', 'please', 'should', 'which', 'would', 'these', 'there', 'have', 'with', 'were'],
  zh: ['修复', '文件', '测试', '函数', '问题', '然后', '请帮我', '这个', '错误', '运行'],
  ja: ['ファイル', 'テスト', 'してください', '修正して', 'エラーが', '関数を', '実行します', 'これは'],
  ko: ['파일을', '테스트', '수정해', '주세요', '오류가', '함수를', '실행하고', '그리고'],
  es: ['el', 'los', 'archivo', 'pruebas', 'porque', 'también', 'necesito', 'ahora', 'después', 'función'],
  de: ['der', 'und', 'nicht', 'bitte', 'datei', 'jetzt', 'danach', 'werden', 'auch', 'über'],
  fr: ['le', 'les', 'dans', 'fichier', 'avec', 'nous', 'vous', 'maintenant', 'être', 'pourquoi'],
  pt: ['você', 'não', 'arquivo', 'também', 'então', 'agora', 'depois', 'preciso', 'função', 'testes'],
  ru: ['файл', 'тесты', 'исправь', 'ошибка', 'функцию', 'потом', 'пожалуйста', 'запусти'],
};
/** Code that may stand between the words, in any language. */
const code = ['src/app.ts', '`parseDate()`', 'https://example.com/docs', 'package.json', '`npm test`'];

describe('detectLanguage on generated text', () => {
  it('reads a text of words of one shipped language as that language, with code between them', () => {
    const codes = Object.keys(vocabulary) as SummaryLanguageCode[];
    const text = fc.constantFrom(...codes).chain((language) =>
      fc
        .tuple(
          fc.array(fc.constantFrom(...vocabulary[language]), { minLength: 4, maxLength: 30 }),
          fc.array(fc.constantFrom(...code), { maxLength: 4 }),
        )
        .map(([words, snippets]) => ({
          language,
          text: [...words, ...snippets].join(language === 'zh' || language === 'ja' ? '' : ' '),
        })),
    );
    fc.assert(
      fc.property(text, ({ language, text }) => {
        expect(detectLanguage(text)).toBe(language);
      }),
    );
  });
});
