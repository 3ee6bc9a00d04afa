import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('resolves the config by name, compacts through both stages and reports an unknown name', () => {
  const output = execFileSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    encoding: 'utf8',
  });
  expect(output).toMatch(/^Registered strategies: .*sliding-window.*tool-result-truncation/m);
  expect(output).toMatch(/Compacted with "pipeline" \(trigger: auto\)/);

  const tokens = (line: string) => Number(line.replace(/,/g, '').match(/(\d+) tokens/)?.[1]);
  const lines = output.split('\n');
  const before = tokens(lines.find((line) => /^\s+before\s/.test(line))!);
  const after = tokens(lines.find((line) => /^\s+after\s/.test(line))!);
  const target = Number(/target ([\d,]+)\)/.exec(output)?.[1]?.replace(/,/g, ''));
  expect(after).toBeLessThan(before);
  expect(after).toBeLessThanOrEqual(target);

  // Both stages ran, in the configured order, each handing its result to the next.
  const stages = lines
    .filter((line) => / → .* tokens, \d+ → \d+ messages$/.test(line))
    .map((line) => {
      const [tokensBefore, tokensAfter] = [...line.replace(/,/g, '').matchAll(/(\d+) (?:→|tokens)/g)].map(
        (match) => Number(match[1]),
      );
      return { name: /(tool-result-truncation|sliding-window)/.exec(line)?.[1], tokensBefore, tokensAfter };
    });
  expect(stages.map((stage) => stage.name)).toEqual(['tool-result-truncation', 'sliding-window']);
  expect(stages[0]!.tokensBefore).toBe(before);
  expect(stages[1]!.tokensBefore).toBe(stages[0]!.tokensAfter);
  expect(stages[1]!.tokensAfter).toBe(after);

  expect(output).toMatch(
    /An unknown name: No strategy named "keep-everything"\..*Install @compaction\/strategy-keep-everything/,
  );
});
