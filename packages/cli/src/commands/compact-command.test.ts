import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findMessageIssues, type Message } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { example, runBinary, temporaryDirectory, temporaryFile } from '../__fixtures__/run-binary.js';
import { runCommand } from '../__fixtures__/run-command.js';

const exampleMessages = JSON.parse(readFileSync(example, 'utf8')) as Message[];

describe('compaction compact', () => {
  it('compacts the bundled example with no API key and reports to stderr', async () => {
    const { code, stdout, stderr } = await runCommand(['compact', example]);
    expect(code).toBe(0);
    const output = JSON.parse(stdout) as Message[];
    expect(findMessageIssues(output)).toEqual([]);
    expect(output.length).toBeLessThanOrEqual(exampleMessages.length);
    expect(JSON.stringify(output).length).toBeLessThan(JSON.stringify(exampleMessages).length);
    expect(stderr).toMatch(
      /^Compacted .*coding-session\.json \(core\) with tool-result-truncation → sliding-window/,
    );
    expect(stderr).toMatch(/before\s+80 messages\s+[\d,]+ tokens/);
    expect(stderr).toMatch(/after\s+\d+ messages\s+[\d,]+ tokens\s+-\d+%/);
    expect(stderr).toMatch(/stages\s+tool-result-truncation/);
    expect(stderr).toMatch(/took \d+/);
  });

  it('prints one JSON object with --json and writes the conversation with -o', async () => {
    const output = join(temporaryDirectory(), 'out.json');
    const { code, stdout } = await runCommand(['compact', example, '--json', '-o', output]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({
      format: 'core',
      strategy: ['tool-result-truncation', 'sliding-window'],
      compacted: true,
      before: { messages: 80 },
      output,
    });
    expect(report.after.tokens).toBeLessThan(report.before.tokens);
    expect(report.after.tokens).toBeLessThanOrEqual(report.target);
    expect(typeof report.durationMs).toBe('number');
    expect(report.stages.map((stage: { name: string }) => stage.name)).toContain('tool-result-truncation');
    const written = JSON.parse(readFileSync(output, 'utf8')) as Message[];
    expect(written.length).toBe(report.after.messages);
  });

  it('runs both default stages when truncation alone cannot reach the limit', async () => {
    const { code, stdout } = await runCommand(['compact', example, '--context-window', '20k', '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ compacted: true, usedFallback: false });
    expect(report.stages.map((stage: { name: string }) => stage.name)).toEqual([
      'tool-result-truncation',
      'sliding-window',
    ]);
    expect(report.stages[0].tokensAfter).toBeLessThan(report.before.tokens);
    expect(report.after.tokens).toBeLessThanOrEqual(report.limit);
  });

  it('reads standard input and accepts --target as tokens or a fraction of the input', async () => {
    const input = readFileSync(example, 'utf8');
    const tokens = await runBinary(['compact', '-', '--target', '12k', '--json'], { input });
    expect(tokens.code).toBe(0);
    const byTokens = JSON.parse(tokens.stdout);
    expect(byTokens.target).toBe(12_000);
    expect(byTokens.after.tokens).toBeLessThanOrEqual(12_000);
    const fraction = await runBinary(['compact', '--target', '0.25', '--json'], { input });
    const byFraction = JSON.parse(fraction.stdout);
    expect(byFraction.target).toBe(Math.floor(byFraction.before.tokens * 0.25));
    expect(byFraction.after.tokens).toBeLessThanOrEqual(byFraction.target);
  });

  it('keeps an Anthropic request with its fields, and converts with --to', async () => {
    const request = {
      model: 'claude-sonnet-4-5',
      max_tokens: 512,
      system: 'You are terse.',
      messages: [
        { role: 'user', content: 'List the files.' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'call-1', name: 'ls', input: { path: '.' } }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'call-1', content: 'a.ts\n'.repeat(400) }],
        },
        { role: 'assistant', content: 'There are 400 files.' },
        { role: 'user', content: 'Thanks. Which is the largest?' },
      ],
    };
    const path = temporaryFile('request.json', JSON.stringify(request));
    const kept = await runCommand(['compact', path, '--target', '0.5']);
    expect(kept.code).toBe(0);
    const output = JSON.parse(kept.stdout);
    expect(output).toMatchObject({ model: 'claude-sonnet-4-5', max_tokens: 512, system: 'You are terse.' });
    expect(output.messages.at(-1)).toEqual({ role: 'user', content: 'Thanks. Which is the largest?' });
    expect(kept.stderr).toContain('(anthropic)');
    const converted = await runCommand(['compact', path, '--target', '0.5', '--to', 'core']);
    const messages = JSON.parse(converted.stdout) as Message[];
    expect(findMessageIssues(messages)).toEqual([]);
    expect(messages[0]).toMatchObject({ role: 'system' });
  });

  it('finds compaction.config.json upward and lets flags override it', async () => {
    const directory = temporaryDirectory();
    writeFileSync(
      join(directory, 'compaction.config.json'),
      JSON.stringify({
        $schema: './schema.json',
        strategy: [{ name: 'pruning' }],
        budget: { contextWindow: 100_000 },
      }),
    );
    const nested = join(directory, 'a', 'b');
    mkdirSync(nested, { recursive: true });
    const fromConfig = JSON.parse((await runCommand(['compact', example, '--json'], { cwd: nested })).stdout);
    expect(fromConfig.strategy).toEqual(['pruning']);
    expect(fromConfig.config).toBe(join(directory, 'compaction.config.json'));
    const overridden = JSON.parse(
      (await runCommand(['compact', example, '--json', '--strategy', 'sliding-window'], { cwd: nested }))
        .stdout,
    );
    expect(overridden.strategy).toEqual(['sliding-window']);
  });

  it('rejects an invalid config with its path and the problem', async () => {
    const config = temporaryFile(
      'compaction.config.json',
      JSON.stringify({ strategy: 'pruning', budget: { trigger: 'soon' } }),
    );
    const { code, stderr } = await runCommand(['compact', example, '--config', config]);
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(config);
    expect(stderr).toContain('budget.trigger');
  });

  it('says exactly what to set when summarization has no provider', async () => {
    const { code, stderr } = await runCommand(['compact', example, '--strategy', 'summarization']);
    expect(code).toBe(1);
    expect(stderr).toContain('"summarization" strategy needs a provider');
    expect(stderr).toContain('--provider anthropic');
    expect(stderr).toContain('ANTHROPIC_API_KEY');
    const noKey = await runCommand([
      'compact',
      example,
      '--strategy',
      'summarization',
      '--provider',
      'anthropic',
    ]);
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toBe('compaction: the anthropic provider needs an API key: set ANTHROPIC_API_KEY\n');
  });

  it('runs summarization with maxOutputTokens 0 (the artifact trail alone) without a provider', async () => {
    const config = temporaryFile(
      'compaction.config.json',
      JSON.stringify({
        strategy: [
          'tool-result-truncation',
          {
            name: 'summarization',
            options: { maxOutputTokens: 0, recentShare: 0.05, placement: 'assistant-after-task' },
          },
        ],
        budget: { target: 0.05 },
      }),
    );
    const output = join(temporaryDirectory(), 'out.json');
    const { code, stdout, stderr } = await runCommand([
      'compact',
      example,
      '--config',
      config,
      '--json',
      '-o',
      output,
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ compacted: true, usedFallback: false });
    const messages = JSON.parse(readFileSync(output, 'utf8')) as Message[];
    expect(findMessageIssues(messages)).toEqual([]);
    // The summary is the artifact trail, placed after the task as an assistant message.
    const summary = messages.find((message) => JSON.stringify(message).includes('## Artifact trail'));
    expect(summary?.role).toBe('assistant');
  });

  it('asks no provider for a summarization fallback that --strategy replaces', async () => {
    const config = temporaryFile(
      'compaction.config.json',
      JSON.stringify({ strategy: 'tool-result-truncation', fallback: 'summarization' }),
    );
    const replaced = await runCommand([
      'compact',
      example,
      '--config',
      config,
      '--strategy',
      'sliding-window',
    ]);
    expect(replaced.stderr).not.toContain('needs a provider');
    expect(replaced.code).toBe(0);
    const kept = await runCommand(['compact', example, '--config', config]);
    expect(kept.code).toBe(1);
    expect(kept.stderr).toContain('"summarization" strategy needs a provider');
  });

  it('lists the registered strategies for an unknown name', async () => {
    const { code, stderr } = await runCommand(['compact', example, '--strategy', 'magic']);
    expect(code).toBe(1);
    expect(stderr).toContain('no strategy named "magic"');
    expect(stderr).toContain('sliding-window');
    expect(stderr).toContain('@compaction/strategy-magic');
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

describe('unreadable input', () => {
  const cases: Array<[string, string | Buffer, RegExp]> = [
    [
      'truncated JSON',
      '[{"role": "user", "content": [{"type": "text", "text": "hi"}',
      /invalid JSON at line 1, column \d+/,
    ],
    [
      'a syntax error on a later line',
      '{\n  "messages": [\n    {"role": "user", x}\n  ]\n}',
      /invalid JSON at line 3, column 22/,
    ],
    ['a wrong shape', '{"conversation": 1}', /not a valid core conversation: messages: expected an array/],
    ['an unknown role', '[{"role": "robot", "content": []}]', /messages\[0\]\.role: unknown role "robot"/],
    ['an empty file', '', /is empty/],
    ['binary data', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]), /binary data/],
    ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), /binary data, not UTF-8 text/],
    [
      'a broken JSONL line',
      '{"type":"user","message":{"role":"user","content":"hi"}}\n{"type": "assistant", \n',
      /line 2, column \d+/,
    ],
  ];
  for (const [name, content, expected] of cases) {
    it(`reports ${name} on one line with exit code 2`, async () => {
      const path = temporaryFile('input.json', content);
      const { code, stderr, stdout } = await runCommand(['compact', path]);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(expected);
      expect(stderr).toContain(path);
    });
  }

  it('reports a missing file', async () => {
    const { code, stderr } = await runCommand(['count', '/nonexistent/conversation.json']);
    expect(code).toBe(2);
    expect(stderr).toBe('compaction: cannot read /nonexistent/conversation.json: no such file\n');
  });

  it('reports bad flags with exit code 1', async () => {
    const unknown = await runCommand(['compact', example, '--frobnicate']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/compact: unknown option '--frobnicate'/);
    const target = await runCommand(['compact', example, '--target', 'lots']);
    expect(target.code).toBe(1);
    expect(target.stderr).toContain('--target must be a token count');
    const format = await runCommand(['compact', example, '--from', 'xml']);
    expect(format.stderr).toContain('--from must be one of core, anthropic');
  });
});

describe('deeply nested input', () => {
  const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
  const coreWithInput = (input: string) =>
    `[{"role":"user","content":[{"type":"text","text":"go"}]},` +
    `{"role":"assistant","content":[{"type":"tool-call","toolCallId":"a","toolName":"t","input":${input}}]},` +
    `{"role":"tool","content":[{"type":"tool-result","toolCallId":"a","toolName":"t","output":"done"}]},` +
    `{"role":"user","content":[{"type":"text","text":"next"}]}]`;
  const cases: Array<[string, string, RegExp]> = [
    ['a bare list', deep(100_000), /: \[0\]\[0\]\[0\].*… is nested more than 1,000 levels deep$/],
    [
      'a core tool input',
      coreWithInput(deep(100_000)),
      /\[1\]\.content\[0\]\.input\[0\].*… is nested more than 1,000/,
    ],
    [
      "an OpenAI tool call's arguments string",
      JSON.stringify({
        model: 'gpt-4o',
        messages: [
          { role: 'user', content: 'go' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'a', type: 'function', function: { name: 't', arguments: deep(100_000) } }],
          },
          { role: 'tool', tool_call_id: 'a', content: 'done' },
        ],
      }),
      /input \(JSON text\) is nested more than 1,000 levels deep$/,
    ],
    [
      'an Anthropic message',
      `{"model":"claude-sonnet-4-5","max_tokens":10,"messages":[{"role":"user","content":${deep(100_000)}}]}`,
      /messages\[0\]\.content\[0\].* is nested more than 1,000 levels deep$/,
    ],
  ];
  for (const [name, content, expected] of cases) {
    it(`refuses ${name} nested 100,000 deep with one line and exit code 2`, async () => {
      const path = temporaryFile('deep.json', content);
      for (const command of ['compact', 'count']) {
        const { code, stdout, stderr } = await runCommand([command, path]);
        expect(code, stderr).toBe(2);
        expect(stdout).toBe('');
        expect(stderr.trim().split('\n')).toHaveLength(1);
        expect(stderr.trim()).toMatch(expected);
        expect(stderr).not.toMatch(/Maximum call stack|\n\s+at /);
      }
    });
  }

  it('compacts input nested right up to the limit', async () => {
    // The list, a message, its content, a part: the tool input may nest 996 levels more.
    const path = temporaryFile('deep.json', coreWithInput(deep(996)));
    const { code, stdout, stderr } = await runCommand(['compact', path, '--target', '2']);
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout).length).toBeGreaterThan(0);
    const over = await runCommand(['compact', temporaryFile('deeper.json', coreWithInput(deep(997)))]);
    expect(over.code).toBe(2);
  });
});
