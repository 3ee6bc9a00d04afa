import { type Message, withCompactionMetadata } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { conversationLanguage } from './conversation-language.js';

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const englishProse =
  'The tests in this repository should all pass with the new parser, and the changes would be kept small. ';

/** An agent turn with an English tool result, as tools print. */
function toolTurn(id: string): Message[] {
  return [
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: id, toolName: 'bash', input: { command: 'ls' } }],
    },
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: id, toolName: 'bash', output: englishProse.repeat(20) }],
    },
  ];
}

describe('conversationLanguage', () => {
  it("reads the user's messages, not the system prompt, tool results or summaries", () => {
    const messages: Message[] = [
      { role: 'system', content: [{ type: 'text', text: englishProse.repeat(10) }] },
      user('请修复日期解析器中的错误，并让所有测试通过。'),
      ...toolTurn('a'),
      withCompactionMetadata(user(`[Summary of 4 earlier messages, compaction round 1]\n${englishProse}`), {
        kind: 'summary',
      }),
      ...toolTurn('b'),
      user('现在请顺便更新一下变更日志。'),
    ];
    expect(conversationLanguage(messages)).toBe('zh');
  });

  it('leaves out the blocks harnesses put into user messages', () => {
    const reminder = `<system-reminder>${englishProse.repeat(5)}</system-reminder>`;
    const output = `<returncode>0</returncode><output>${englishProse.repeat(5)}</output>`;
    expect(
      conversationLanguage([user(`${reminder}\nバグを修正して、テストを通してください。`), user(output)]),
    ).toBe('ja');
  });

  it('does not let one long English message outweigh the requests the user wrote in their language', () => {
    const messages = [
      user('Bitte behebe den Fehler im Parser, damit die Tests wieder durchlaufen.'),
      user(`Caveat: ${englishProse.repeat(8)}`),
      user('Danach bitte auch das Änderungsprotokoll aktualisieren.'),
    ];
    expect(conversationLanguage(messages)).toBe('de');
    // Level with English, the other language wins: English is what harnesses and tools add.
    expect(
      conversationLanguage([
        user(`Caveat: ${englishProse}`),
        user(
          'Исправь, пожалуйста, ошибку в парсере дат, запусти все тесты и проверь, что они снова проходят без ошибок.',
        ),
      ]),
    ).toBe('ru');
  });

  it('is English when the user writes English or nothing it can read', () => {
    expect(conversationLanguage([user(englishProse)])).toBe('en');
    expect(conversationLanguage([])).toBe('en');
    expect(conversationLanguage([user('`npm test`'), ...toolTurn('c')])).toBe('en');
  });
});
