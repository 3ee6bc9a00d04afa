import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compactedRequestViolations, type ProviderRequestFormat } from '@compaction/testing';
import { describe, expect, it } from 'vitest';
import { example, type LooseJson, temporaryDirectory } from '../__fixtures__/run-binary.js';
import { runCommand } from '../__fixtures__/run-command.js';

const formats: readonly ProviderRequestFormat[] = ['anthropic', 'openai-chat', 'openai-responses'];
const task = 'The /users endpoint returns 500 for missing users; make it return 404 and add a test.';

/** A written conversation as a request of its format: `compact` writes a bare list as it read one. */
function asRequest(format: ProviderRequestFormat, path: string): LooseJson {
  const written = JSON.parse(readFileSync(path, 'utf8'));
  if (!Array.isArray(written)) return written;
  return format === 'openai-responses' ? { input: written } : { messages: written };
}

/** The rules `after` breaks against `before`, less those `before` already breaks on its own. */
function newViolations(format: ProviderRequestFormat, before: LooseJson, after: LooseJson): string[] {
  const already = new Set(compactedRequestViolations(format, before, before).map(({ rule }) => rule));
  return compactedRequestViolations(format, before, after)
    .filter(({ rule }) => !already.has(rule))
    .map(({ rule, path, message }) => `${rule} at ${path}: ${message}`);
}

/** The proxy's default, which needs no provider: the artifact trail alone, after the task. */
const proxyDefault = {
  strategy: [
    'tool-result-truncation',
    {
      name: 'summarization',
      options: { maxOutputTokens: 0, recentShare: 0.05, placement: 'assistant-after-task' },
    },
  ],
  fallback: 'sliding-window',
};

/** Each strategy under test with the flags that pick it (a config file in `folder` for the proxy's default). */
const strategies: ReadonlyArray<readonly [string, (folder: string) => string[]]> = [
  ['the default pipeline', () => []],
  ['pruning', () => ['--strategy', 'pruning']],
  ['sliding-window', () => ['--strategy', 'sliding-window']],
  [
    "the proxy's default pipeline",
    (folder) => {
      const config = join(folder, 'compaction.config.json');
      writeFileSync(config, JSON.stringify(proxyDefault));
      return ['--config', config];
    },
  ],
];

// A request compacted once holds the note of what was removed in a user message (in Anthropic joined with
// the tool results beside it); compacting it again merges that note into one with the new count. The note
// is no user request, and the user's task (the newest request of the bundled session) must come through.
describe('compact, again and again, in every format', () => {
  for (const format of formats) {
    for (const [name, flagsIn] of strategies) {
      it(`${format}: ${name} keeps the newest user request and every rule the input kept`, async () => {
        const folder = temporaryDirectory();
        const strategyFlags = flagsIn(folder);
        const converted = join(folder, 'converted.json');
        const conversion = await runCommand([
          'compact',
          example,
          '--to',
          format,
          '--target',
          '100k',
          '-o',
          converted,
        ]);
        expect(conversion.code, conversion.stderr).toBe(0);
        let previous = converted;
        for (const [round, target] of [
          [1, '0.5'],
          [2, '0.3'],
          [3, '0.6'],
        ] as const) {
          const output = join(folder, `round-${round}.json`);
          const run = await runCommand([
            'compact',
            previous,
            ...strategyFlags,
            '--target',
            target,
            '-o',
            output,
          ]);
          expect(run.code, run.stderr).toBe(0);
          const before = asRequest(format, previous);
          const after = asRequest(format, output);
          expect(newViolations(format, before, after), `compaction ${round}`).toEqual([]);
          expect(newViolations(format, asRequest(format, converted), after), `compaction ${round}`).toEqual(
            [],
          );
          expect(JSON.stringify(after)).toContain(JSON.stringify(task));
          previous = output;
        }
      });
    }
  }
});
