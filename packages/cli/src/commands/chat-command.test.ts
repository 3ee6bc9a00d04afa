import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropicServer } from '../__fixtures__/fake-anthropic-server.js';
import { runBinary } from '../__fixtures__/run-binary.js';
import { hasScript, runInTerminal } from '../__fixtures__/run-in-terminal.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const prompt = /you> /;

describe('compaction chat', () => {
  it('needs a provider and its API key, and says what to set', async () => {
    const none = await runBinary(['chat']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(
      'chat needs a provider: pass --provider anthropic (with ANTHROPIC_API_KEY set)',
    );
    const noKey = await runBinary(['chat', '--provider', 'anthropic']);
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toBe('compaction: the anthropic provider needs an API key: set ANTHROPIC_API_KEY\n');
  });

  it.skipIf(!hasScript)(
    'chats in a terminal against --base-url, compacts automatically and runs the slash commands',
    async () => {
      const server = await startFakeAnthropicServer(
        (_request, index) => `Answer ${index + 1}. ${'Details of the answer. '.repeat(120)}`,
      );
      closers.push(server.close);
      const questions = [
        'What is compaction?',
        'And why does it matter?',
        'Give an example.',
        'One more thing.',
        'Thanks.',
      ];
      const { code, output } = await runInTerminal(
        [
          'chat',
          '--provider',
          'anthropic',
          '--model',
          'claude-test',
          '--base-url',
          server.url,
          '--context-window',
          '4000',
          '--strategy',
          'sliding-window',
          '--system',
          'You are a test.',
        ],
        {
          env: { ANTHROPIC_API_KEY: 'test-key' },
          lines: [
            ...questions.map((question) => ({ when: prompt, send: question })),
            { when: prompt, send: '/tokens' },
            { when: prompt, send: '/history' },
            { when: prompt, send: '/bogus' },
            { when: prompt, send: '/quit' },
          ],
        },
      );
      expect(code, output).toBe(0);
      expect(output).toContain('Chatting with anthropic claude-test; context window 4,000 tokens');
      for (let index = 1; index <= questions.length; index++)
        expect(output).toContain(`assistant> Answer ${index}.`);
      expect(output).toMatch(/\[compacted \(auto\) with sliding-window: [\d,]+ → [\d,]+ tokens\]/);
      expect(output).toMatch(
        /[\d,]+ tokens in \d+ messages: [\d.]+% of the limit [\d,]+ \(trigger [\d,]+, target [\d,]+\); [1-9]\d* compactions?/,
      );
      expect(output).toMatch(/1 system\s+You are a test\./);
      expect(output).toContain('unknown command /bogus');
      expect(output).toContain('bye');

      expect(server.requests).toHaveLength(questions.length);
      const first = server.requests[0]!;
      expect(String(first.headers['x-api-key'] ?? first.headers.authorization)).toContain('test-key');
      expect(first.body.model).toBe('claude-test');
      expect(JSON.stringify(first.body.system)).toContain('You are a test.');
      expect(JSON.stringify(first.body.messages)).toContain('What is compaction?');
      // Every request carries the newest question, and the compacted ones are smaller than the full history.
      for (const [index, question] of questions.entries()) {
        expect(JSON.stringify(server.requests[index]!.body.messages)).toContain(question);
      }
      const last = server.requests.at(-1)!.body.messages;
      expect(last.length).toBeLessThan(questions.length * 2 - 1);
    },
  );

  it.skipIf(!hasScript)(
    'summarizes on /compact with instructions when the summarization strategy is installed',
    async () => {
      const server = await startFakeAnthropicServer((request, index) =>
        JSON.stringify(request.body).includes('Keep the numbers')
          ? '## Summary\nThe user asked three questions; the numbers were 1, 2 and 3.'
          : `Answer ${index + 1}. ${'Long details. '.repeat(80)}`,
      );
      closers.push(server.close);
      const { code, output } = await runInTerminal(
        [
          'chat',
          '--provider',
          'anthropic',
          '--base-url',
          server.url,
          '--context-window',
          '200k',
          '--target',
          '200',
        ],
        {
          env: { ANTHROPIC_API_KEY: 'test-key' },
          lines: [
            { when: prompt, send: 'Question one about 1' },
            { when: prompt, send: 'Question two about 2' },
            { when: prompt, send: 'Question three about 3' },
            { when: prompt, send: '/compact Keep the numbers' },
            { when: prompt, send: '/history' },
            { when: prompt, send: '/quit' },
          ],
        },
      );
      expect(code, output).toBe(0);
      expect(output).toMatch(/compacted with pipeline: [\d,]+ → [\d,]+ tokens/);
      expect(
        server.requests.some((request) => JSON.stringify(request.body).includes('Keep the numbers')),
      ).toBe(true);
      expect(output).toContain('[summary]');
    },
  );
});
