import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { finalAnswer } from './scripted-model.js';

/** Runs the example offline (no key, `--offline`) and returns what it printed. */
function runOffline(): string {
  const { ANTHROPIC_API_KEY: _key, ...environment } = process.env;
  return execFileSync(process.execPath, ['--import', 'tsx', 'src/main.ts', '--offline'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    encoding: 'utf8',
    env: environment,
  });
}

it('runs the Mastra agent offline, compacting between turns and recalling what was cleared', () => {
  const output = runOffline();
  const lines = output.split('\n');
  expect(lines[0]).toMatch(/^Mode: offline \(scripted model on http:\/\/127\.0\.0\.1:\d+\)$/);
  const compactions = lines.filter((line) => /^compacted before turn \d+ \(auto,/.test(line));
  expect(compactions.length).toBeGreaterThanOrEqual(2);
  for (const line of compactions) {
    const [before, after] = [...line.replace(/,/g, '').matchAll(/(\d+) (?:→|tokens)/g)].map((match) =>
      Number(match[1]),
    );
    expect(after).toBeLessThan(before!);
  }
  // Every request fitted the 16,000-token window.
  for (const line of lines.filter((candidate) => candidate.includes('largest request'))) {
    expect(Number(/largest request ([\d,]+)/.exec(line)?.[1]?.replace(/,/g, ''))).toBeLessThanOrEqual(16_000);
  }
  expect(output).toContain('turn 5: 2 steps (recall)');
  expect(output).toContain(`Answer: ${finalAnswer}`);
  expect(output).toMatch(/Done after 5 turns; \d+ compactions\./);
});
