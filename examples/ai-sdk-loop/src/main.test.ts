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

it('runs the generateText loop offline, compacting whenever the history crosses the trigger', () => {
  const output = runOffline();
  const lines = output.split('\n');
  expect(lines[0]).toMatch(/^Mode: offline \(scripted model on http:\/\/127\.0\.0\.1:\d+\)$/);

  const sent = (line: string) => Number(/sent\s+([\d,]+) tokens/.exec(line)?.[1]?.replace(/,/g, ''));
  const stepLines = lines.filter((line) => /^step\s+\d+\s+sent/.test(line));
  const compactions = lines.flatMap((line, index) =>
    /^compacted before step \d+ \(auto,/.test(line) ? [index] : [],
  );
  expect(compactions.length).toBeGreaterThanOrEqual(3);

  for (const index of compactions) {
    const line = lines[index]!;
    // The compaction ran before the step it names, and that step sent less than the one before it.
    const step = Number(/before step (\d+)/.exec(line)?.[1]);
    const [before, after] = [...line.replace(/,/g, '').matchAll(/(\d+) (?:→|tokens)/g)].map((match) =>
      Number(match[1]),
    );
    expect(after).toBeLessThan(before!);
    const previous = lines.slice(0, index).findLast((candidate) => /^step\s+\d+\s+sent/.test(candidate))!;
    const next = lines.slice(index).find((candidate) => /^step\s+\d+\s+sent/.test(candidate))!;
    expect(Number(/^step\s+(\d+)/.exec(next)?.[1])).toBe(step);
    expect(sent(next)).toBeLessThan(sent(previous));
  }
  // Every request fitted the 16,000-token window, and the loop reached the scripted answer.
  for (const line of stepLines) expect(sent(line)).toBeLessThanOrEqual(16_000);
  expect(output).toContain('Answer: The half-cent rounding in src/billing/module-4.ts:77 truncates');
  expect(output).toContain(`Done after ${stepLines.length} steps; ${compactions.length} compactions.`);
  expect(output).toContain("The caller's messages are untouched: 2 messages.");
});
