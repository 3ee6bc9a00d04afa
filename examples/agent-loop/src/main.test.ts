import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** Runs one provider's example offline (no key, `--offline`) and returns what it printed. */
function runOffline(script: string, keyVariable: string): string {
  const { [keyVariable]: _key, ...environment } = process.env;
  return execFileSync(process.execPath, ['--import', 'tsx', script, '--offline'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    encoding: 'utf8',
    env: environment,
  });
}

const examples = [
  // The history: the task, an answer and a tool result per step but the last (and the developer message).
  {
    script: 'src/anthropic.ts',
    keyVariable: 'ANTHROPIC_API_KEY',
    url: /http:\/\/127\.0\.0\.1:\d+/,
    extra: 0,
  },
  { script: 'src/openai.ts', keyVariable: 'OPENAI_API_KEY', url: /http:\/\/127\.0\.0\.1:\d+\/v1/, extra: 1 },
];

describe.each(examples)('$script', ({ script, keyVariable, url, extra }) => {
  it('runs the agent loop offline, compacting at the trigger and recovering one overflow', () => {
    const output = runOffline(script, keyVariable);
    const lines = output.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^Mode: offline \\(scripted model on ${url.source}\\)$`));

    const sent = (line: string) => Number(/sent\s+([\d,]+) tokens/.exec(line)?.[1]?.replace(/,/g, ''));
    const sentLines = lines.filter((line) => /^step\s+\d+\s+sent/.test(line));
    const automatic = lines.flatMap((line, index) => (/compacted \(auto,/.test(line) ? [index] : []));
    expect(automatic.length).toBeGreaterThanOrEqual(3);
    expect(lines.filter((line) => /refused as too long/.test(line))).toHaveLength(1);
    expect(lines.filter((line) => /compacted \(overflow,/.test(line))).toHaveLength(1);

    // Right after each compaction, the request sent is smaller than the one before it.
    for (const index of [...automatic, lines.findIndex((line) => /compacted \(overflow,/.test(line))]) {
      const before = lines.slice(0, index).findLast((line) => /^step\s+\d+\s+sent/.test(line))!;
      const after = lines.slice(index).find((line) => /^step\s+\d+\s+sent/.test(line))!;
      expect(sent(after)).toBeLessThan(sent(before));
    }
    // No request the model accepted was over the window, and the history was kept whole.
    for (const line of sentLines) expect(sent(line)).toBeLessThanOrEqual(16_000);
    const answers = Number(/Done after (\d+) answers/.exec(output)?.[1]);
    expect(answers).toBe(sentLines.length);
    expect(output).toContain(`History: ${2 * answers + extra} messages kept whole`);
    expect(output).toContain(`Compactions: ${automatic.length} automatic, 1 after an overflow.`);
  });
});
