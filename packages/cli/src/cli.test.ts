import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageDirectory, runBinary } from './__fixtures__/run-binary.js';

describe('compaction --help', () => {
  it('lists every command', async () => {
    const { code, stdout } = await runBinary(['--help']);
    expect(code).toBe(0);
    for (const command of [
      'compact',
      'count',
      'simulate',
      'serve',
      'chat',
      'schema',
      'migrate',
      'proxy',
      'mcp',
    ]) {
      expect(stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
  });

  for (const command of [
    'compact',
    'count',
    'simulate',
    'serve',
    'chat',
    'schema',
    'migrate',
    'proxy',
    'mcp',
  ]) {
    it(`documents every flag of ${command}`, async () => {
      const { code, stdout } = await runBinary([command, '--help']);
      expect(code).toBe(0);
      expect(stdout).toMatch(new RegExp(`^Usage: compaction ${command}`));
      const source = readFileSync(join(packageDirectory, 'src', 'commands', `${command}-command.ts`), 'utf8');
      const flags = [...source.matchAll(/^\s+'?([a-z-]+)'?: \{ type: '(?:string|boolean)'/gm)].map(
        (match) => match[1]!,
      );
      // Flags that each take a value, declared together: valueFlags('store', 'session').
      for (const [, names] of source.matchAll(/valueFlags\(([^)]*)\)/g)) {
        flags.push(...[...names!.matchAll(/'([a-z-]+)'/g)].map((match) => match[1]!));
      }
      for (const flag of flags) expect(stdout, `--${flag}`).toContain(`--${flag}`);
    });
  }

  it('rejects an unknown command and prints the version', async () => {
    const unknown = await runBinary(['compress']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown command "compress"');
    const version = await runBinary(['--version']);
    const packageJson = JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8'));
    expect(version.stdout.trim()).toBe(packageJson.version);
  });
});

describe('compaction schema', () => {
  it('prints the config schema with every installed strategy, as shipped in the package', async () => {
    const { code, stdout } = await runBinary(['schema']);
    expect(code).toBe(0);
    const schema = JSON.parse(stdout);
    expect(schema.title).toBe('Compaction config');
    for (const name of ['tool-result-truncation', 'sliding-window', 'pruning']) {
      expect(stdout).toContain(`"const": "${name}"`);
    }
    expect(readFileSync(join(packageDirectory, 'compaction.schema.json'), 'utf8')).toBe(stdout);
  });
});
