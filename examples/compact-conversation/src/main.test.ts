import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { latestUserMessageIndex } from '@compaction/core';
import { reachableFloor } from '@compaction/testing';
import { describeConformance } from '@compaction/testing/vitest';
import { expect, it } from 'vitest';
import { keepRecentTurns } from './keep-recent-turns.js';

// A custom strategy runs the same conformance suite as the packaged ones. It always keeps what follows the
// newest request (the newest turn when there is none), so the targets it must reach count that as kept.
describeConformance('keep-recent-turns (example)', {
  strategy: keepRecentTurns,
  floor: (messages, counter) =>
    reachableFloor(messages, counter) +
    counter.estimate(messages.slice(latestUserMessageIndex(messages) + 1)),
});

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
