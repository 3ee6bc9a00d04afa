import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compactionMetadataOf, type Message } from '@compaction/core';
import { defaultSummarySections } from '@compaction/strategy-summarization';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropicServer } from '../__fixtures__/fake-anthropic-server.js';
import { example, type LooseJson, temporaryDirectory, temporaryFile } from '../__fixtures__/run-binary.js';
import { runCommand } from '../__fixtures__/run-command.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const summary = defaultSummarySections
  .map((section) => `## ${section}\nThe work on the parser goes on.`)
  .join('\n');

/** A folder with a config naming the strategy (and fallback), and the flags that reach the fake server. */
async function summarizationSetup(
  answer: () => string | { status: number; type: string; message: string },
  config: object,
) {
  const server = await startFakeAnthropicServer(answer);
  closers.push(server.close);
  const directory = temporaryDirectory();
  writeFileSync(join(directory, 'compaction.config.json'), JSON.stringify(config));
  const flags = ['--provider', 'anthropic', '--model', 'claude-sonnet-4-6', '--base-url', server.url];
  return { server, directory, flags, env: { ANTHROPIC_API_KEY: 'test-key' } };
}

const refused = () => ({
  status: 400,
  type: 'invalid_request_error',
  message: 'the summarizer is unavailable',
});

describe('compact says when a fallback made the result', () => {
  it('names summarization when the summary is real', async () => {
    const { directory, flags, env } = await summarizationSetup(() => summary, { strategy: 'summarization' });
    const run = await runCommand(['compact', example, ...flags], { cwd: directory, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^Compacted .* \(core\) with summarization\n/);
    expect(run.stderr).not.toContain('warning');
    const json = await runCommand(['compact', example, ...flags, '--json'], { cwd: directory, env });
    expect(JSON.parse(json.stdout)).toMatchObject({ usedFallback: false });
    expect(JSON.parse(json.stdout).failures).toBeUndefined();
  });

  it("reports summarization's extractive digest as a fallback, with the failure", async () => {
    const { directory, flags, env } = await summarizationSetup(refused, { strategy: 'summarization' });
    const run = await runCommand(['compact', example, ...flags], { cwd: directory, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /^compaction: warning: summarization: .*summarizer is unavailable.*; an extractive digest/m,
    );
    expect(run.stderr).not.toMatch(/^Compacted .* with summarization/m);
    expect(run.stderr).toMatch(/^Compacted .* \(core\) with an extractive digest \(summarization failed\)$/m);
    const json = await runCommand(['compact', example, ...flags, '--json'], { cwd: directory, env });
    expect(json.code).toBe(0);
    const report: LooseJson = JSON.parse(json.stdout);
    expect(report).toMatchObject({ compacted: true, usedFallback: true, fallback: 'extractive-digest' });
    expect(report.failures).toEqual([expect.stringMatching(/^summarization: .*summarizer is unavailable/)]);
    expect(report.stages[0]).toMatchObject({ name: 'summarization', fallback: 'extractive-digest' });
    expect(json.stderr).toMatch(/^compaction: warning: summarization: /);
    // The digest really is what was written: a summary message marked as the extractive fallback.
    const output = join(directory, 'out.json');
    await runCommand(['compact', example, ...flags, '-o', output], { cwd: directory, env });
    const messages = JSON.parse(readFileSync(output, 'utf8')) as Message[];
    expect(messages.some((message) => compactionMetadataOf(message)?.fallback === 'extractive')).toBe(true);
  });

  it("reports the Compactor's fallback strategy and the failure it replaced", async () => {
    const { directory, flags, env } = await summarizationSetup(refused, {
      strategy: [{ name: 'summarization', options: { fallback: 'error' } }],
      fallback: 'sliding-window',
    });
    const run = await runCommand(['compact', example, ...flags], { cwd: directory, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /^compaction: warning: summarization: .*; the fallback sliding-window produced the result$/m,
    );
    expect(run.stderr).toMatch(
      /^Compacted .* \(core\) with the fallback sliding-window \(summarization failed\)$/m,
    );
    const json = await runCommand(['compact', example, ...flags, '--json'], { cwd: directory, env });
    const report: LooseJson = JSON.parse(json.stdout);
    expect(report).toMatchObject({ usedFallback: true, fallback: 'sliding-window' });
    expect(report.failures).toEqual([expect.stringMatching(/^summarization: /)]);
    expect(report.stages.map((stage: { name: string }) => stage.name)).toEqual(['sliding-window']);
  });
});

describe('compact names the numbers the user gave', () => {
  const messages = JSON.parse(readFileSync(example, 'utf8')) as Message[];
  // A newest request of about 1,700 tokens: no strategy may drop it, so nothing fits a 2,000-token window.
  const request: Message = {
    role: 'user',
    content: [{ type: 'text', text: `Please do this: ${'lorem ipsum dolor sit amet '.repeat(300)}` }],
  };
  const input = temporaryFile('long-request.json', JSON.stringify([...messages, request]));

  it('says which target cannot be reached and the best reached, with exit code 3', async () => {
    const given = await runCommand(['compact', input, '--context-window', '2k', '--target', '507']);
    expect(given.code).toBe(3);
    expect(given.stdout).toBe('');
    expect(given.stderr.trim().split('\n')).toHaveLength(1);
    const match =
      /^compaction: cannot reach the target of 507 tokens: the best is ([\d,]+), over the limit of 1,400 tokens \(a 2,000-token context window/.exec(
        given.stderr,
      );
    expect(match, given.stderr).not.toBeNull();
    const best = Number(match![1]!.replace(/,/g, ''));
    const counted = JSON.parse((await runCommand(['count', input, '--json'])).stdout);
    expect(best).toBeGreaterThan(1400);
    expect(best).toBeLessThan(counted.tokens);
    expect(given.stderr).not.toContain(String(counted.tokens));

    const window = await runCommand(['compact', input, '--context-window', '2k']);
    expect(window.code).toBe(3);
    expect(window.stderr).toMatch(
      /^compaction: cannot fit the limit of 1,400 tokens \(a 2,000-token context window .*\): the best is [\d,]+/,
    );
  });

  it('keeps a result under the limit but over the target, and says the target was not reached', async () => {
    const run = await runCommand(['compact', input, '--target', '507', '--json']);
    expect(run.code).toBe(0);
    const report: LooseJson = JSON.parse(run.stdout);
    expect(report).toMatchObject({ compacted: true, target: 507, targetReached: false });
    expect(report.after.tokens).toBeGreaterThan(507);
    expect(run.stderr).toBe(
      `compaction: warning: the target of 507 tokens was not reached: the result has ${report.after.tokens.toLocaleString('en-US')} tokens (within the limit of ${report.limit.toLocaleString('en-US')})\n`,
    );
  });

  it('says there is nothing to compact when no target was given and the strategy can remove nothing', async () => {
    const chat = Array.from({ length: 20 }, (_, index) => ({
      role: index % 2 === 0 ? 'user' : 'assistant',
      content: [{ type: 'text', text: `Message ${index}: ${'words '.repeat(30)}` }],
    }));
    const text = JSON.stringify(chat);
    const path = temporaryFile('no-tools.json', text);
    const run = await runCommand(['compact', path, '--strategy', 'tool-result-truncation']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(text);
    expect(run.stderr).toMatch(
      /^Nothing compacted in .*no-tools\.json \(core\): there is nothing to compact: tool-result-truncation found nothing to remove/,
    );
    // A target the user gave is a number to meet: not reaching it is still exit 3, with both numbers.
    const given = await runCommand([
      'compact',
      path,
      '--strategy',
      'tool-result-truncation',
      '--target',
      '0.5',
    ]);
    expect(given.code).toBe(3);
    expect(given.stdout).toBe('');
    const match = /^compaction: cannot reach the target of ([\d,]+) tokens: the best is ([\d,]+); /.exec(
      given.stderr,
    );
    expect(match, given.stderr).not.toBeNull();
    const counted = JSON.parse((await runCommand(['count', path, '--json'])).stdout);
    expect(Number(match![1]!.replace(/,/g, ''))).toBe(Math.floor(counted.tokens / 2));
    expect(Number(match![2]!.replace(/,/g, ''))).toBe(counted.tokens);
  });

  it('refuses a target above the limit with the numbers given', async () => {
    const run = await runCommand(['compact', example, '--context-window', '100k', '--target', '120k']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^compaction: the target of 120,000 tokens is above the limit of [\d,]+ \(a 100,000-token context window/,
    );
  });
});
