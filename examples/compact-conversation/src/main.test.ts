import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describeConformance } from '@compaction/testing/vitest';
import { expect, it } from 'vitest';
import { keepRecentTurns } from './keep-recent-turns.js';

// A custom strategy runs the same conformance suite as the packaged ones.
describeConformance('keep-recent-turns (example)', { strategy: keepRecentTurns });

it('the example compacts the bundled conversation and prints the report', () => {
  const directory = fileURLToPath(new URL('..', import.meta.url));
  const output = execFileSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: directory,
    encoding: 'utf8',
  });
  expect(output).toMatch(/The conversation holds \d+ messages/);
  expect(output).toMatch(/Compacted with "keep-recent-turns"/);
  const tokens = /tokens\s+(\d+)\s+(\d+)/.exec(output);
  expect(Number(tokens?.[2])).toBeLessThan(Number(tokens?.[1]));
});
