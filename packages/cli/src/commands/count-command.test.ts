import { readFileSync } from 'node:fs';
import { createFastEstimator, type Message, type Part, type ToolCallPart } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { startFakeAnthropicServer } from '../__fixtures__/fake-anthropic-server.js';
import { example, temporaryFile } from '../__fixtures__/run-binary.js';
import { runCommand } from '../__fixtures__/run-command.js';

const messages = JSON.parse(readFileSync(example, 'utf8')) as Message[];
const sum = (record: Record<string, number>) =>
  Object.values(record).reduce((total, value) => total + value, 0);

describe('compaction count', () => {
  it('breaks the tokens down by role, part kind and tool, adding up to the total', async () => {
    const { code, stdout } = await runCommand(['count', example, '--json']);
    expect(code).toBe(0);
    const counts = JSON.parse(stdout);
    expect(counts.estimator).toBe('fast');
    const estimator = createFastEstimator();
    expect(counts.tokens).toBe(
      messages.reduce((total, message) => total + estimator.countMessage(message), 0),
    );
    expect(sum(counts.byRole)).toBe(counts.tokens);
    expect(sum(counts.byPartKind)).toBe(counts.tokens);
    const calls = messages
      .flatMap((message) => message.content as Part[])
      .filter((part): part is ToolCallPart => part.type === 'tool-call');
    const toolNames = [...new Set(calls.map((part) => part.toolName))].sort();
    expect(Object.keys(counts.byTool).sort()).toEqual(toolNames);
    for (const name of toolNames) {
      expect(counts.byTool[name].calls).toBe(calls.filter((part) => part.toolName === name).length);
    }
    expect(counts.byPartKind['tool-result']).toBeGreaterThan(counts.byPartKind.text);
  });

  it('prints a readable breakdown', async () => {
    const { stdout } = await runCommand(['count', example]);
    expect(stdout).toMatch(/^[\d,]+ tokens in 80 messages \(fast/);
    expect(stdout).toMatch(/By role\n\s+tool\s+[\d,]+\s+[\d.]+%/);
    expect(stdout).toContain('By part kind');
    expect(stdout).toMatch(/By tool\n\s+\w+\s+[\d,]+\s+[\d.]+%\s+\d+ calls/);
  });

  it('compares the available estimators side by side', async () => {
    const { code, stdout } = await runCommand(['count', example, '--compare', '--json']);
    expect(code).toBe(0);
    const counts = JSON.parse(stdout);
    expect(counts.compare[0]).toMatchObject({ estimator: 'fast', difference: 0, tokens: counts.tokens });
    const listed = [...counts.compare, ...counts.unavailable].map(
      (entry: { estimator: string }) => entry.estimator,
    );
    expect(listed.sort()).toEqual(['fast', 'features', 'provider', 'tiktoken']);
    for (const entry of counts.compare.slice(1)) expect(entry.difference).toBe(entry.tokens - counts.tokens);
    const table = await runCommand(['count', example, '--compare']);
    expect(table.stdout).toMatch(/estimator\s+source\s+tokens\s+difference/);
  });

  it('needs a provider for --estimator provider, and rejects unknown estimators', async () => {
    const provider = await runCommand(['count', example, '--estimator', 'provider']);
    expect(provider.code).toBe(1);
    expect(provider.stderr).toContain('--estimator provider needs a provider');
    const unknown = await runCommand(['count', example, '--estimator', 'guess']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('--estimator must be one of fast, features, tiktoken, provider');
  });

  it('counts every text by the fitted features with --estimator features', async () => {
    const { code, stdout } = await runCommand(['count', example, '--estimator', 'features', '--json']);
    expect(code).toBe(0);
    const counts = JSON.parse(stdout);
    expect(counts).toMatchObject({ estimator: 'features', source: 'features:o200k' });
    const estimator = createFastEstimator({ vocabulary: false });
    expect(counts.tokens).toBe(
      messages.reduce((total, message) => total + estimator.countMessage(message), 0),
    );
    expect(counts.tokens).not.toBe(
      messages.reduce((total, message) => total + createFastEstimator().countMessage(message), 0),
    );
    expect(sum(counts.byRole)).toBe(counts.tokens);
  });

  it('counts exactly through the provider, over HTTP to --base-url', async () => {
    const server = await startFakeAnthropicServer(() => 'unused');
    try {
      const flags = ['--provider', 'anthropic', '--base-url', server.url];
      const env = { ANTHROPIC_API_KEY: 'test-key' };
      const exact = await runCommand(['count', example, '--estimator', 'provider', '--json', ...flags], {
        env,
      });
      expect(exact.code, exact.stderr).toBe(0);
      const counts = JSON.parse(exact.stdout);
      const request = server.requests.find((received) => received.path === '/v1/messages/count_tokens')!;
      const characters =
        JSON.stringify(request.body.messages).length + JSON.stringify(request.body.system ?? '').length;
      expect(counts).toMatchObject({ estimator: 'provider', tokens: Math.ceil(characters / 4) });
      expect(sum(counts.byRole)).toBeGreaterThan(counts.tokens * 0.99);
      const compared = await runCommand(['count', example, '--compare', '--json', ...flags], { env });
      const estimators = JSON.parse(compared.stdout).compare.map(
        (entry: { estimator: string }) => entry.estimator,
      );
      expect(estimators).toContain('provider');
    } finally {
      await server.close();
    }
  });

  it('counts an empty conversation as zero', async () => {
    const { code, stdout } = await runCommand(['count', temporaryFile('empty.json', '[]'), '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ tokens: 0, messages: 0, byRole: {} });
  });
});
