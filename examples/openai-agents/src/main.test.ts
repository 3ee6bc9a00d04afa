import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

/** Runs the example offline (no key, `--offline`) and returns what it printed. */
function runOffline(): string {
  const { OPENAI_API_KEY: _key, ...environment } = process.env;
  return execFileSync(process.execPath, ['--import', 'tsx', 'src/main.ts', '--offline'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    encoding: 'utf8',
    env: environment,
  });
}

it('runs an Agents SDK agent offline over two runs, compacting whenever the history crosses the trigger', () => {
  const output = runOffline();
  const lines = output.split('\n');
  expect(lines[0]).toMatch(/^Mode: offline \(scripted model on http:\/\/127\.0\.0\.1:\d+\)$/);

  const sent = (line: string) => Number(/sent\s+([\d,]+) tokens/.exec(line)?.[1]?.replace(/,/g, ''));
  const callLines = lines.filter((line) => /^call\s+\d+\s+sent/.test(line));
  const compactions = lines.flatMap((line, index) =>
    /^compacted before call \d+ \(auto,/.test(line) ? [index] : [],
  );
  expect(compactions.length).toBeGreaterThanOrEqual(2);
  for (const index of compactions) {
    // The compaction ran before the call it names, and that call sent less than the one before it.
    const line = lines[index]!;
    const call = Number(/before call (\d+)/.exec(line)?.[1]);
    const previous = lines.slice(0, index).findLast((candidate) => /^call\s+\d+\s+sent/.test(candidate))!;
    const next = lines.slice(index).find((candidate) => /^call\s+\d+\s+sent/.test(candidate))!;
    expect(Number(/^call\s+(\d+)/.exec(next)?.[1])).toBe(call);
    expect(sent(next)).toBeLessThan(sent(previous));
  }
  // Every request fitted the 16,000-token window, and both runs reached their scripted answers.
  for (const line of callLines) expect(sent(line)).toBeLessThanOrEqual(16_000);
  expect(output).toContain('Answer: The half-cent rounding in src/billing/module-4.ts:77 truncates');
  expect(output).toContain('Answer: Change Math.floor to Math.round at src/billing/module-4.ts:77.');
  expect(output).toContain(`Done after ${callLines.length} model calls; ${compactions.length} compactions.`);
});
