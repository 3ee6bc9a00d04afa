import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { example } from './__fixtures__/run-binary.js';
import { runCommand } from './__fixtures__/run-command.js';

// An application with a strategy package of its own, which neither the CLI's folder nor the test process's
// working folder can see: as with a CLI installed globally, run on an application's config.
let application: string;
let elsewhere: string;

beforeAll(() => {
  application = mkdtempSync(join(tmpdir(), 'compaction-application-'));
  elsewhere = mkdtempSync(join(tmpdir(), 'compaction-elsewhere-'));
  const folder = join(application, 'node_modules', '@compaction', 'strategy-keep-everything');
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'package.json'),
    JSON.stringify({ name: '@compaction/strategy-keep-everything', type: 'module', exports: './index.js' }),
  );
  writeFileSync(
    join(folder, 'index.js'),
    `export default {
      specificationVersion: 'v1',
      name: 'keep-everything',
      description: 'Keeps every message.',
      optionsSchema: { type: 'object', properties: {}, additionalProperties: false },
      create: () => ({ specificationVersion: 'v1', name: 'keep-everything',
        compact: async (input) => ({ messages: [...input.messages] }) }),
    };`,
  );
  writeFileSync(join(application, 'compaction.config.json'), '{"strategy": "keep-everything"}');
});

afterAll(() => {
  rmSync(application, { recursive: true, force: true });
  rmSync(elsewhere, { recursive: true, force: true });
});

describe('strategies installed beside the config or in the working folder', () => {
  it('are found from the --config file, whatever the working folder', async () => {
    const config = join(application, 'compaction.config.json');
    const { code, stdout, stderr } = await runCommand(['compact', example, '--config', config, '--json'], {
      cwd: elsewhere,
    });
    expect(stderr).not.toMatch(/not found|StrategyNotFound/i);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ strategy: ['keep-everything'] });
  });

  it('are found from the working folder, where the config is found upward', async () => {
    const { code, stdout } = await runCommand(['compact', example, '--json'], { cwd: application });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ strategy: ['keep-everything'] });
  });
});
