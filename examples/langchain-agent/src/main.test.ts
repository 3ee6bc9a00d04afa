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

it('runs the createAgent loop offline, compacting whenever the history crosses the trigger, and recalls', () => {
  const output = runOffline();
  const lines = output.split('\n');
  expect(lines[0]).toMatch(/^Mode: offline \(scripted model on http:\/\/127\.0\.0\.1:\d+\)$/);

  const sent = (line: string) => Number(/sent\s+([\d,]+) tokens/.exec(line)?.[1]?.replace(/,/g, ''));
  const stepLines = lines.filter((line) => /^step\s+\d+\s+sent/.test(line));
  const compactions = lines.flatMap((line, index) =>
    /^compacted before step \d+ \(auto,/.test(line) ? [index] : [],
  );
  expect(compactions.length).toBeGreaterThanOrEqual(2);
  for (const index of compactions) {
    // The compaction ran before the step printed next, which sent less than the history that crossed the
    // trigger (the count is anchored on the usage the model reported).
    const line = lines[index]!;
    const [before, after] = [...line.replace(/,/g, '').matchAll(/(\d+) (?:→|tokens)/g)].map((match) =>
      Number(match[1]),
    );
    expect(after).toBeLessThan(before!);
    const next = lines[index + 1]!;
    expect(next).toMatch(/^step\s+\d+\s+sent/);
    expect(sent(next)).toBeLessThan(before!);
  }
  // Every request fitted the 16,000-token window, the model recalled a cleared output, and answered.
  for (const line of stepLines) expect(sent(line)).toBeLessThanOrEqual(16_000);
  expect(output).toMatch(/→ recall\(\{"handle":"[a-z0-9]+"\}\)/);
  expect(output).toContain('Answer: The half-cent rounding in src/billing/module-4.ts:77 truncates');
  expect(output).toContain(
    `Done after ${stepLines.length} steps; ${compactions.length} compactions; 1 recall.`,
  );
});
