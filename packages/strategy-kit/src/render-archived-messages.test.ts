import type { Message, ToolResultPart } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { calls, results, system, user } from './__fixtures__/messages.js';
import { renderArchivedMessages, toolResultText } from './render-archived-messages.js';

describe('renderArchivedMessages', () => {
  it('renders every kind of part readably and without loss for text, calls and results', () => {
    const messages: Message[] = [
      system('Be brief.'),
      user('Fix the test\nin src/a.ts'),
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'look first', signature: 'sig' },
          { type: 'text', text: 'Running it.' },
          {
            type: 'tool-call',
            toolCallId: 'c1',
            toolName: 'bash',
            input: { command: 'npm test', n: [1, 2] },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'bash',
            output: 'FAIL a.test.ts\nexit 1',
            isError: true,
          },
        ],
      },
      { role: 'user', content: [{ type: 'image', image: 'aGVsbG8=', mediaType: 'image/png' }] },
    ];
    expect(renderArchivedMessages(messages)).toBe(
      [
        '[system]\nBe brief.',
        '[user]\nFix the test\nin src/a.ts',
        '[assistant]\n[reasoning]\nlook first\nRunning it.\n[tool call bash c1] {"command":"npm test","n":[1,2]}',
        '[tool]\n[tool result bash c1, error]\nFAIL a.test.ts\nexit 1',
        '[user]\n[image image/png]',
      ].join('\n\n'),
    );
  });

  it('gives the same text for equal messages, and different texts for different ones', () => {
    const history = [user('task'), calls('a'), results('a')];
    expect(renderArchivedMessages(structuredClone(history))).toBe(renderArchivedMessages(history));
    expect(renderArchivedMessages([user('task'), calls('b'), results('b')])).not.toBe(
      renderArchivedMessages(history),
    );
  });
});

describe('toolResultText', () => {
  it('is a string output itself, and the texts of a list with a note per image or file', () => {
    const part: ToolResultPart = { type: 'tool-result', toolCallId: 'c', toolName: 'read', output: 'whole' };
    expect(toolResultText(part)).toBe('whole');
    const listed: ToolResultPart = {
      ...part,
      output: [
        { type: 'text', text: 'first' },
        { type: 'file', data: 'eA==', mediaType: 'application/pdf', filename: 'a.pdf' },
        { type: 'text', text: 'second' },
      ],
    };
    expect(toolResultText(listed)).toBe('first\n[file application/pdf a.pdf]\nsecond');
  });
});
