import { describe, expect, it } from 'vitest';
import { claudeCodeToMessages } from './claude-code-messages.js';

const log = (...lines: object[]) => lines.map((line) => JSON.stringify(line)).join('\n');

describe('claudeCodeToMessages', () => {
  it('merges the lines of one response and turns tool results into tool messages', () => {
    const messages = claudeCodeToMessages(
      log(
        { type: 'summary', summary: 'earlier work' },
        { type: 'user', message: { role: 'user', content: 'fix the test' } },
        {
          type: 'assistant',
          message: {
            id: 'msg_1',
            role: 'assistant',
            content: [{ type: 'thinking', thinking: 'look', signature: 's' }],
          },
        },
        {
          type: 'assistant',
          message: {
            id: 'msg_1',
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'npm test' } }],
          },
        },
        {
          type: 'user',
          message: {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'toolu_1', content: '1 failing' },
              { type: 'text', text: 'and keep it short' },
            ],
          },
        },
        {
          type: 'assistant',
          message: { id: 'msg_2', role: 'assistant', content: [{ type: 'text', text: 'done' }] },
        },
      ),
    );
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'fix the test' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'look', signature: 's' },
          { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'Bash', input: { command: 'npm test' } },
        ],
      },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'toolu_1', toolName: 'Bash', output: '1 failing' }],
      },
      { role: 'user', content: [{ type: 'text', text: 'and keep it short' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
    ]);
  });

  it('keeps two responses apart when their ids differ', () => {
    const messages = claudeCodeToMessages(
      log(
        { type: 'user', message: { role: 'user', content: 'hi' } },
        {
          type: 'assistant',
          message: { id: 'msg_1', role: 'assistant', content: [{ type: 'text', text: 'a' }] },
        },
        {
          type: 'assistant',
          message: { id: 'msg_2', role: 'assistant', content: [{ type: 'text', text: 'b' }] },
        },
      ),
    );
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'assistant']);
  });
});
