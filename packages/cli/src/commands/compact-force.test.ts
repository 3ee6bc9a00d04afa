import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { example, type LooseJson, temporaryFile } from '../__fixtures__/run-binary.js';
import { runCommand } from '../__fixtures__/run-command.js';

// Not on the Node 22 compatibility run: what the command decides is plain code, run in the test process.
describeOnFullRun('compact --force', () => {
  it('compacts a conversation already under the target given, which is skipped without it', async () => {
    const target = ['--target', '1m', '--context-window', '2m'];
    const unforced = await runCommand(['compact', example, ...target, '--json']);
    expect(unforced.code, unforced.stderr).toBe(0);
    expect(JSON.parse(unforced.stdout)).toMatchObject({ compacted: false, skipped: 'under-target' });

    const output = temporaryFile('forced.json', '');
    const forced = await runCommand(['compact', example, ...target, '--force', '--json', '-o', output]);
    expect(forced.code, forced.stderr).toBe(0);
    const report: LooseJson = JSON.parse(forced.stdout);
    expect(report.compacted).toBe(true);
    expect(report.after.tokens).toBeLessThan(report.before.tokens);
    expect(report.before.tokens).toBeLessThan(1_000_000);
    expect(readFileSync(output, 'utf8')).not.toBe(readFileSync(example, 'utf8'));
  });

  it('skips with nothing-to-compact, exit 0, when the strategies can remove nothing', async () => {
    const oneMessage = JSON.stringify([{ role: 'user', content: 'Rename the config loader.' }]);
    const path = temporaryFile('one-message.json', oneMessage);
    const run = await runCommand(['compact', path, '--target', '100k', '--force']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(oneMessage);
    expect(run.stderr).toContain('there is nothing to compact');
  });
});
