import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { transcriptsDirectory } from '@compaction/testing/transcripts';
import { describe, expect, it } from 'vitest';
import { example, type LooseJson, temporaryDirectory, temporaryFile } from '../__fixtures__/run-binary.js';
import { runCommand } from '../__fixtures__/run-command.js';

const words = (count: number, seed: string) =>
  Array.from({ length: count }, (_, index) => `${seed}${index}`).join(' ');

/** A long plain Chat conversation: alternating user and assistant strings, no tool calls. */
const plainChat = (turns: number) =>
  Array.from({ length: turns * 2 }, (_, index) =>
    index % 2 === 0
      ? { role: 'user', content: `Question ${index / 2}: ${words(40, 'q')}` }
      : { role: 'assistant', content: `Answer ${(index - 1) / 2}: ${words(200, 'a')}` },
  );

// Inputs of every format, written the way people write them: keys in their own order, odd spacing, fields
// the converters reorder, and (in Chat) a tool-call id used twice, which the OpenAI API accepts as it is.
const unchangedInputs: Array<[string, string]> = [
  ['core list', `[ {"content": [{"text": "hi", "type": "text"}], "role": "user"} ]\n`],
  ['core object', `{"note": 1, "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]}`],
  [
    'anthropic request',
    `{"messages":[{"content":"Hello","role":"user"}],"max_tokens":1024,"model":"claude-sonnet-4-6","system":"Be brief."}`,
  ],
  [
    'anthropic list',
    `[{"role":"user","content":[{"text":"Weather?","type":"text"}]},{"role":"assistant","content":[{"input":{"city":"Paris"},"name":"w","id":"toolu_1","type":"tool_use"}]},{"role":"user","content":[{"content":"18","tool_use_id":"toolu_1","type":"tool_result"}]}]`,
  ],
  [
    'openai-chat request with a duplicate tool-call id',
    JSON.stringify(
      {
        model: 'gpt-4o',
        messages: [
          { role: 'user', content: 'Run it twice.' },
          {
            content: null,
            role: 'assistant',
            tool_calls: [{ type: 'function', id: 'call_x', function: { arguments: '{}', name: 'run' } }],
          },
          { tool_call_id: 'call_x', role: 'tool', content: 'one' },
          {
            content: null,
            role: 'assistant',
            tool_calls: [{ type: 'function', id: 'call_x', function: { arguments: '{ }', name: 'run' } }],
          },
          { tool_call_id: 'call_x', role: 'tool', content: 'two' },
          { role: 'user', content: 'Thanks.' },
        ],
      },
      null,
      4,
    ),
  ],
  ['openai-chat list', `[{"content":"Hello!","role":"user"},{"role":"assistant","content":"Hi."}]\r\n`],
  [
    'openai-responses request',
    `{"input":[{"content":"Hi","role":"user"}],"instructions":"Be brief.","model":"gpt-5"}`,
  ],
  [
    'openai-responses list',
    `[{"role":"user","content":[{"type":"input_text","text":"Weather?"}]},{"arguments":"{\\"city\\": \\"Paris\\"}","name":"w","call_id":"c1","type":"function_call"},{"output":"18","call_id":"c1","type":"function_call_output"}]`,
  ],
];

describe('compact with nothing to compact', () => {
  for (const [name, text] of unchangedInputs) {
    it(`writes ${name} back byte for byte`, async () => {
      const input = temporaryFile('input.json', `\uFEFF${text}`);
      const output = join(temporaryDirectory(), 'output.json');
      const run = await runCommand(['compact', input, '--target', '100k']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(
        /^Nothing compacted .*: it is already under the target; the output is the input unchanged/,
      );
      expect(run.stdout).toBe(`\uFEFF${text}`);
      const written = await runCommand(['compact', input, '--target', '100k', '-o', output, '--json']);
      expect(JSON.parse(written.stdout)).toMatchObject({ compacted: false, skipped: 'under-target' });
      expect(readFileSync(output).equals(readFileSync(input))).toBe(true);
    });
  }

  const directory = transcriptsDirectory();
  it.skipIf(directory === undefined)('writes real Claude Code sessions back line for line', async () => {
    const folder = join(directory!, 'claude-code');
    for (const name of readdirSync(folder).filter((file) => file.endsWith('.jsonl'))) {
      const path = join(folder, name);
      const run = await runCommand(['compact', path, '--target', '100k']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout === readFileSync(path, 'utf8'), name).toBe(true);
    }
  });
});

describe('compact reads each format as the format it is', () => {
  it('keeps a bare list of Chat messages without tool calls a Chat list', async () => {
    const messages = plainChat(30);
    const input = temporaryFile('chat.json', JSON.stringify(messages));
    const run = await runCommand(['compact', input]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('(openai-chat)');
    const output: LooseJson[] = JSON.parse(run.stdout);
    expect(output.length).toBeLessThan(messages.length);
    for (const message of output) {
      expect(Object.keys(message).sort()).toEqual(['content', 'role']);
      expect(['user', 'assistant']).toContain(message.role);
    }
    // The newest question survives as it was.
    expect(output).toContainEqual(messages.at(-2));
  });

  it('keeps an Anthropic request with string contents an Anthropic request', async () => {
    const request = {
      model: 'claude-sonnet-4-6',
      max_tokens: 1024,
      messages: plainChat(30),
    };
    const input = temporaryFile('request.json', JSON.stringify(request));
    const run = await runCommand(['compact', input]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('(anthropic)');
    const output = JSON.parse(run.stdout);
    expect(output).toMatchObject({ model: 'claude-sonnet-4-6', max_tokens: 1024 });
    expect(output.messages[0].role).toBe('user');
    for (const message of output.messages) expect(Object.keys(message).sort()).toEqual(['content', 'role']);
  });

  it('keeps a bare list of Responses items a list', async () => {
    const items = plainChat(30).map((message) => ({
      type: 'message',
      role: message.role,
      content: [{ type: message.role === 'user' ? 'input_text' : 'output_text', text: message.content }],
    }));
    const run = await runCommand(['compact', temporaryFile('items.json', JSON.stringify(items))]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('(openai-responses)');
    const output = JSON.parse(run.stdout);
    expect(Array.isArray(output)).toBe(true);
    expect(output.length).toBeLessThan(items.length);
  });

  it('refuses input with clues of two formats, naming them, unless --from says which', async () => {
    const mixed = {
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'Run it.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'a', content: 'done' },
      ],
    };
    const input = temporaryFile('mixed.json', JSON.stringify(mixed));
    const run = await runCommand(['compact', input]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /cannot tell the format: .*"tool_calls".*\(openai-chat\) and the request field "system" \(anthropic\); pass --from/,
    );
    const chosen = await runCommand(['count', input, '--from', 'openai-chat', '--json']);
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(JSON.parse(chosen.stdout).format).toBe('openai-chat');
  });

  it('converts with --to even when nothing is compacted, without calling the output unchanged', async () => {
    const input = temporaryFile('chat.json', JSON.stringify(plainChat(2)));
    const run = await runCommand(['compact', input, '--to', 'openai-responses', '--target', '100k']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^Nothing compacted .*: it is already under the target\n/);
    expect(JSON.parse(run.stdout).input).toHaveLength(4);
  });

  it('still reads the bundled core example as core', async () => {
    const run = await runCommand(['count', example, '--json']);
    expect(JSON.parse(run.stdout).format).toBe('core');
  });
});
