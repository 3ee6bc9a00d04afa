import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { steadyAnswer } from '../../../server/src/serve/__fixtures__/steady-answer.js';
import { packageDirectory } from '../__fixtures__/run-binary.js';
import { type RunningServer, startServer } from '../__fixtures__/start-server.js';

// Runs the curl examples of docs/serve.md, in order, with curl itself, against `compaction serve` started with
// no flags, and compares each answer with the one the page shows. In a shown answer, "…" stands for any value.

const page = join(packageDirectory, '..', '..', 'docs', 'serve.md');
const documentedPort = 'localhost:4319';

interface Example {
  line: number;
  script: string;
  /** The answer shown after it: the JSON block that follows, or the lines under each `$ curl` of a text block. */
  answers: string[];
}

/** The examples of the page: sh blocks of curl commands, and text blocks whose commands are all curl. */
function examples(markdown: string): Example[] {
  const blocks = [...markdown.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((match) => ({
    language: match[1]!,
    text: match[2]!,
    line: markdown.slice(0, match.index).split('\n').length,
  }));
  const found: Example[] = [];
  for (const [index, block] of blocks.entries()) {
    if (block.language === 'sh' && block.text.startsWith('curl ')) {
      const next = blocks[index + 1];
      found.push({
        line: block.line,
        script: block.text,
        answers: next?.language === 'json' ? [next.text] : [],
      });
    }
    const commands = block.text.split('\n').filter((line) => line.startsWith('$ '));
    if (
      block.language === 'text' &&
      commands.length > 0 &&
      commands.every((line) => line.startsWith('$ curl '))
    ) {
      const parts = block.text.split(/^\$ /m).filter((part) => part !== '');
      for (const part of parts) {
        const [command, ...output] = part.trimEnd().split('\n');
        found.push({ line: block.line, script: command!, answers: [output.join('\n')] });
      }
    }
  }
  return found;
}

/** Whether a shown value stands for the actual one: "…" for anything, otherwise equal in every part. */
function differences(shown: unknown, actual: unknown, path = ''): string[] {
  if (shown === '…') return [];
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual) || actual.length !== shown.length)
      return [`${path}: ${JSON.stringify(actual)}`];
    return shown.flatMap((item, index) => differences(item, actual[index], `${path}[${index}]`));
  }
  if (typeof shown === 'object' && shown !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual))
      return [`${path}: ${JSON.stringify(actual)}`];
    const keys = new Set([...Object.keys(shown), ...Object.keys(actual)]);
    return [...keys].flatMap((key) =>
      differences(
        (shown as Record<string, unknown>)[key],
        (actual as Record<string, unknown>)[key],
        `${path}.${key}`,
      ),
    );
  }
  return Object.is(shown, actual)
    ? []
    : [`${path}: shown ${JSON.stringify(shown)}, got ${JSON.stringify(actual)}`];
}

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

describe('docs/serve.md', () => {
  it('shows what its curl examples answer', () => {
    const found = examples(readFileSync(page, 'utf8'));
    expect(found.length).toBeGreaterThanOrEqual(8);
    // Ids the page shows stand for the ids this run's server gave.
    const ids = new Map<string, string>();
    const address = new URL(server.url).host;
    for (const { line, script, answers } of found) {
      let runnable = script.replaceAll(documentedPort, address);
      for (const [shown, actual] of ids) runnable = runnable.replaceAll(shown, actual);
      // Each answer on a line of its own, as the page shows them.
      const output = execFileSync('sh', ['-c', `curl() { command curl "$@"; echo; }\n${runnable}`], {
        encoding: 'utf8',
      });
      const actual = JSON.parse(output.trimEnd().split('\n').at(-1)!);
      const shown = JSON.parse(answers.at(-1)!);
      expect(differences(steadyAnswer(shown), steadyAnswer(actual)), `docs/serve.md:${line}`).toEqual([]);
      if (typeof shown.id === 'string' && typeof actual.id === 'string') ids.set(shown.id, actual.id);
    }
  });
});
