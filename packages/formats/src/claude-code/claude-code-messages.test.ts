import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../format-error.js';
import { formats } from '../formats.js';
import { claudeCodeToMessages } from './claude-code-messages.js';

const log = (...lines: object[]) => lines.map((line) => JSON.stringify(line)).join('\n');

/** The shared real transcripts beside the repository (as `@compaction/testing` finds them), if there. */
function sharedTranscripts(): string | undefined {
  const configured = process.env.COMPACTION_TRANSCRIPTS;
  if (configured) return existsSync(configured) ? resolve(configured) : undefined;
  for (let directory = resolve(process.cwd()); ; directory = dirname(directory)) {
    const candidate = join(directory, 'shared', 'fixtures', 'transcripts');
    if (existsSync(candidate)) return candidate;
    if (dirname(directory) === directory) return undefined;
  }
}

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

  it('reads the chain Claude Code resumes: an abandoned prompt is left out', () => {
    const line = (uuid: string, parentUuid: string | null, type: string, content: string) => ({
      type,
      uuid,
      parentUuid,
      message: { role: type, content, ...(type === 'assistant' ? { id: `msg_${uuid}` } : {}) },
    });
    const messages = claudeCodeToMessages(
      log(
        line('u1', null, 'user', 'fix the test'),
        line('a1', 'u1', 'assistant', 'which one?'),
        line('u2', 'a1', 'user', 'the one that fails'),
        // The prompt edited and sent again: Claude Code resumes this branch, not the first.
        line('u3', 'a1', 'user', 'the login test'),
        line('a2', 'u3', 'assistant', 'fixed'),
      ),
    );
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'fix the test' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'which one?' }] },
      { role: 'user', content: [{ type: 'text', text: 'the login test' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'fixed' }] },
    ]);
  });

  it('makes consecutive user lines one user turn, as Claude Code sends them', () => {
    const messages = claudeCodeToMessages(
      log(
        {
          type: 'user',
          message: { role: 'user', content: '<local-command-caveat>ignore</local-command-caveat>' },
        },
        { type: 'user', message: { role: 'user', content: 'fix the test' } },
        { type: 'assistant', message: { id: 'msg_1', role: 'assistant', content: 'done' } },
      ),
    );
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(messages[0]!.content).toHaveLength(2);
  });

  it('refuses a broken line with its number, as a FormatError of reason input', () => {
    const broken = `${log({ type: 'user', message: { role: 'user', content: 'hi' } })}\n{"type": `;
    expect(() => claudeCodeToMessages(broken)).toThrow(/^invalid JSON on line 2, column \d+/);
    try {
      claudeCodeToMessages(broken);
    } catch (error) {
      expect(FormatError.isInstance(error) && error.code).toBe('formats/input');
    }
  });

  const transcripts = sharedTranscripts();
  describe.skipIf(transcripts === undefined)('on a shared real session', () => {
    it('reads the messages `compaction compact --from claude-code` reads: 25, not the 35 of file order', async () => {
      const path = join(transcripts!, 'claude-code', '0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl');
      const text = readFileSync(path, 'utf8');
      const messages = claudeCodeToMessages(text);
      expect(messages).toHaveLength(25);
      expect(messages).toEqual((await formats['claude-code'].read(text)).messages);
    });
  });
});
