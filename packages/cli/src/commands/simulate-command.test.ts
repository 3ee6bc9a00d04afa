import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateCodingHistory } from '@compaction/testing';
import { describe, expect, it } from 'vitest';
import { example, temporaryDirectory } from '../__fixtures__/run-binary.js';
import { runCommand } from '../__fixtures__/run-command.js';
import { hasScript, runInTerminal } from '../__fixtures__/run-in-terminal.js';

describe('compaction simulate', () => {
  it('runs the trigger policy a config names, and names the known ones when it names another', async () => {
    const directory = temporaryDirectory();
    const config = (triggerPolicy: unknown) => {
      const path = join(directory, `config-${JSON.stringify(triggerPolicy).length}.json`);
      writeFileSync(
        path,
        JSON.stringify({ strategy: ['tool-result-truncation', 'sliding-window'], triggerPolicy }),
      );
      return path;
    };
    const run = (path: string) =>
      runCommand(['simulate', example, '--context-window', '30k', '--json', '--config', path]);
    const plain = await runCommand(['simulate', example, '--context-window', '30k', '--json']);
    const cacheAware = await run(config({ name: 'cache-aware', options: { clearTo: 0.2 } }));
    expect(cacheAware.code).toBe(0);
    const [withPolicy, without] = [JSON.parse(cacheAware.stdout), JSON.parse(plain.stdout)];
    expect(withPolicy.totals.compactions).toBeGreaterThan(0);
    // Every compaction clears to 0.2 of the limit: deeper than the default target (0.6).
    expect(withPolicy.totals.peakContextTokens).toBeLessThanOrEqual(withPolicy.limit);
    expect(withPolicy.totals.inputTokens).toBeLessThan(without.totals.inputTokens);
    const unknown = await run(config('soon'));
    expect(unknown.code).not.toBe(0);
    // With --json the error is a JSON document too.
    expect(JSON.parse(unknown.stderr).error.message).toContain(
      'unknown trigger policy "soon" (known: cache-aware)',
    );
  });

  it('reports each step, the billed tokens and the compactions as JSON, and plots them', async () => {
    const plot = join(temporaryDirectory(), 'context.svg');
    const { code, stdout } = await runCommand([
      'simulate',
      example,
      '--context-window',
      '30k',
      '--json',
      '--plot',
      plot,
    ]);
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({
      format: 'core',
      strategy: ['tool-result-truncation', 'sliding-window'],
      plot,
    });
    expect(result.totals.compactions).toBeGreaterThan(0);
    expect(result.totals.inputTokens).toBeLessThan(result.baseline.inputTokens);
    expect(result.totals.cacheReadTokens + result.totals.cacheWriteTokens).toBe(result.totals.inputTokens);
    expect(result.steps.every((step: { contextTokens: number }) => step.contextTokens <= result.limit)).toBe(
      true,
    );
    const svg = readFileSync(plot, 'utf8');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.match(/<g class="compaction">/g)).toHaveLength(result.totals.compactions);
    expect(svg).toContain('class="limit"');
    expect(svg).toContain('class="trigger"');
  });

  it('prints a readable report under a configurable price model', async () => {
    const { code, stdout } = await runCommand([
      'simulate',
      example,
      '--context-window',
      '30k',
      '--no-cache',
      '--input-price',
      '2',
      '--output-price',
      '8',
    ]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Replayed \d+ model calls with tool-result-truncation → sliding-window/);
    expect(stdout).toMatch(/input tokens sent\s+[\d,]+\s+[\d,]+\s+-\d+%/);
    expect(stdout).toMatch(/cache reads\s+0\s+0/);
    expect(stdout).toMatch(/\d+ compactions?, costing \$0\.0000/);
    expect(stdout).toContain('prices per million tokens: input $2, output $8, no caching');
    const cached = await runCommand(['simulate', example, '--context-window', '30k', '--json']);
    const uncached = await runCommand([
      'simulate',
      example,
      '--context-window',
      '30k',
      '--json',
      '--no-cache',
    ]);
    expect(JSON.parse(cached.stdout).totals.cost).toBeLessThan(JSON.parse(uncached.stdout).totals.cost);
  });

  it('rejects a bad price', async () => {
    const { code, stderr } = await runCommand(['simulate', example, '--input-price', 'free']);
    expect(code).toBe(1);
    expect(stderr).toContain('--input-price must be dollars per million tokens');
  });

  it.skipIf(!hasScript)('shows a progress bar on a terminal for long runs', async () => {
    const path = join(temporaryDirectory(), 'long.json');
    writeFileSync(
      path,
      JSON.stringify(generateCodingHistory({ messages: 600, averageResultCharacters: 300 })),
    );
    const { code, output } = await runInTerminal(['simulate', path, '--context-window', '30k']);
    expect(code).toBe(0);
    expect(output).toMatch(/simulating \[#*-*\] \d+\/600/);
    expect(output).toContain('Replayed');
  });
});
