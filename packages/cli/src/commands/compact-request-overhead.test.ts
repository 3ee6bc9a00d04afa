import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { largeTools } from '../../../server/src/proxy/__fixtures__/limited-upstream.js';
import { temporaryDirectory } from '../__fixtures__/run-binary.js';
import { runCommand } from '../__fixtures__/run-command.js';

// A request's tool definitions take room in the window as its messages do: `compact` counts them, and compacts
// the messages to what fits beside them.

describe('compaction compact: what a request carries besides its messages', () => {
  it('compacts messages that are under the target alone but not beside 12k tokens of tools', async () => {
    const messages = Array.from({ length: 40 }, (_, turn) => ({
      role: turn % 2 === 0 ? 'user' : 'assistant',
      content: `Turn ${turn}: ${'the function returns the rounded value of its argument. '.repeat(20)}`,
    }));
    const path = join(temporaryDirectory(), 'request.json');
    const request = { model: 'claude-sonnet-5-5', max_tokens: 1024, tools: largeTools(12_000), messages };
    writeFileSync(path, JSON.stringify(request));
    const { code, stdout } = await runCommand([
      'compact',
      path,
      '--context-window',
      '100000',
      '--target',
      '15000',
      '--json',
    ]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.before.tokens).toBeLessThan(15_000);
    expect(report.compacted).toBe(true);
    // What is left of the messages fits beside the tools under the target.
    expect(report.after.tokens).toBeLessThan(15_000 - 10_000);
  });
});
