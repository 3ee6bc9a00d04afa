import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { example, type LooseJson, runBinary, temporaryFile } from '../__fixtures__/run-binary.js';
import { runCommand } from '../__fixtures__/run-command.js';

// Not on the Node 22 compatibility run: what the commands decide and print is plain code, with nothing of the
// runtime beyond what the other command tests run there (the Node 20 run has run it).
const oneMessage = JSON.stringify([{ role: 'user', content: 'Rename the config loader and run the tests.' }]);

describeOnFullRun('compact with nothing to compact', () => {
  it('exits 0 on a one-message conversation and says so, the input unchanged, in text and --json', async () => {
    const path = temporaryFile('one-message.json', oneMessage);
    const text = await runBinary(['compact', path]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe(oneMessage);
    expect(text.stderr).toMatch(
      /^Nothing compacted in .*one-message\.json \(openai-chat\): there is nothing to compact: tool-result-truncation → sliding-window found nothing to remove, and it fits the limit of [\d,]+ tokens; the output is the input unchanged\n/,
    );
    // The strategies the user runs are named; core's `pipeline`, which runs them, is not.
    expect(text.stderr).not.toContain('pipeline');

    const json = await runCommand(['compact', path, '--json']);
    expect(json.code).toBe(0);
    const report: LooseJson = JSON.parse(json.stdout);
    expect(report).toMatchObject({
      version: 1,
      compacted: false,
      skipped: 'nothing-to-compact',
      before: { messages: 1 },
      after: { messages: 1 },
      stages: [],
      usedFallback: false,
    });
    expect(report.after.tokens).toBe(report.before.tokens);
    expect(json.stderr).toBe('');
  });

  it('writes nothing over the input with --in-place', async () => {
    const path = temporaryFile('one-message.json', oneMessage);
    const run = await runCommand(['compact', path, '--in-place']);
    expect(run.code).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(oneMessage);
  });

  it('still exits 3 when a target the user gave cannot be reached, or the conversation is over the limit', async () => {
    const path = temporaryFile('one-message.json', oneMessage);
    const given = await runCommand(['compact', path, '--target', '0.5']);
    expect(given.code).toBe(3);
    expect(given.stderr).toMatch(
      /^compaction: cannot reach the target of [\d,]+ tokens: the best is [\d,]+; tool-result-truncation → sliding-window made no progress \[core\/budget-unreachable\]\n$/,
    );
    const long = temporaryFile(
      'long-task.json',
      JSON.stringify([
        { role: 'user', content: `Please do this: ${'lorem ipsum dolor sit amet '.repeat(300)}` },
      ]),
    );
    const over = await runCommand(['compact', long, '--context-window', '2k']);
    expect(over.code).toBe(3);
    expect(over.stderr).toMatch(/^compaction: cannot fit the limit of 1,400 tokens/);
  });
});

describeOnFullRun('several inputs', () => {
  it('are refused with exit 2 by compact, count and simulate, naming them, with nothing written', async () => {
    const first = temporaryFile('first.json', oneMessage);
    const second = temporaryFile('second.json', readFileSync(example, 'utf8'));
    for (const command of ['compact', 'count', 'simulate']) {
      const run = await runCommand([command, first, second]);
      expect(run.code, command).toBe(2);
      expect(run.stdout, command).toBe('');
      expect(run.stderr, command).toBe(
        `compaction: ${command}: one input at a time, not 2 (${first}, ${second}); ` +
          `run it once per file, e.g. for file in *.json; do compaction ${command} "$file" ...; done\n`,
      );
    }
    const output = `${first}.out`;
    const refused = await runCommand(['compact', first, second, '-o', output, '--json']);
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stderr)).toMatchObject({ error: { code: 'cli/usage', exitCode: 2 } });
    expect(() => readFileSync(output)).toThrow(/ENOENT/);
  });
});
