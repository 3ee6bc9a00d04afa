import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createApplication, runScript, userEnvironment } from './application.js';
import { documentedBlock, snippetScript, toJavaScript } from './documented-snippet.js';
import { run } from './run.js';

// One application, installed with npm from the local registry as the docs say, grown scenario by scenario so
// each install adds only what the next scenario needs.
const workFolder = inject('workFolder');
const application = join(workFolder, 'npm-application');
let environment: NodeJS.ProcessEnv;

/** Runs a documented `sh` block with bash in `folder`, as a reader pastes it. */
const runShell = (block: string, folder: string, extra: NodeJS.ProcessEnv = {}) =>
  run('bash', ['-e', '-c', block], { cwd: folder, env: { ...environment, ...extra }, timeout: 600_000 });

/** Prints what the Compactor of a snippet made of the conversation: the check every snippet ends with. */
const compactEpilogue = `const result = await compactor.compact(history, { targetTokens: 12_000 });
console.log(JSON.stringify({ compacted: result.compacted, messages: result.messages.length, strategy: result.event?.strategy }));`;

beforeAll(() => {
  environment = userEnvironment(workFolder, inject('registryUrl'));
  createApplication(application);
});

describe('an application installed with npm from the registry', () => {
  it("installs as the README says and picks strategies by name with core's own registry", async () => {
    await runShell(documentedBlock('README.md', 'sh', 'npm install @compaction/core'), application);
    const script = snippetScript(
      documentedBlock('packages/core/README.md', 'ts', 'createStrategyRegistry()'),
      compactEpilogue,
    );
    const output = JSON.parse(await runScript(application, 'core-readme.mjs', script, environment));
    expect(output).toMatchObject({ compacted: true, strategy: 'pipeline' });
    expect(output.messages).toBeLessThan(80);
  });

  it('resolves a JSON config naming strategies, as the sliding-window README shows', async () => {
    const readme = 'packages/strategy-sliding-window/README.md';
    writeFileSync(
      join(application, 'compaction.config.json'),
      documentedBlock(readme, 'json', '"windowTokens"'),
    );
    const script = snippetScript(documentedBlock(readme, 'ts', 'createStrategyRegistry()'), compactEpilogue);
    const output = JSON.parse(await runScript(application, 'sliding-window-readme.mjs', script, environment));
    expect(output).toMatchObject({ compacted: true, strategy: 'pipeline' });
  });

  it("loads the application's own strategy package by name from a JSON config", async () => {
    // The package custom-strategy.md describes, with the definition the page shows, installed from a folder
    // of the application as an application installs its own packages.
    const packageFolder = join(application, 'keep-recent-turns');
    mkdirSync(packageFolder, { recursive: true });
    const manifest = {
      name: '@compaction/strategy-keep-recent-turns',
      version: '1.0.0',
      type: 'module',
      exports: { '.': { import: './index.js' } },
      dependencies: { '@compaction/strategy-sliding-window': '*' },
      peerDependencies: { '@compaction/core': '*' },
    };
    writeFileSync(join(packageFolder, 'package.json'), JSON.stringify(manifest, null, 2));
    // The page declares `keepRecentTurns`, the strategy itself: here, the sliding window under another name.
    const strategyItself = `import { createSlidingWindow } from '@compaction/strategy-sliding-window';
function keepRecentTurns(options) {
  const window = createSlidingWindow();
  return { specificationVersion: 'v1', name: 'keep-recent-turns', options, compact: (input) => window.compact(input) };
}
`;
    const definition = documentedBlock('docs/custom-strategy.md', 'ts', 'export default defineStrategy');
    writeFileSync(join(packageFolder, 'index.js'), `${strategyItself}${toJavaScript(definition)}`);
    await run('npm', ['install', './keep-recent-turns'], {
      cwd: application,
      env: environment,
      timeout: 600_000,
    });

    writeFileSync(
      join(application, 'compaction.config.json'),
      JSON.stringify({ strategy: { name: 'keep-recent-turns', options: { keep: 2 } } }),
    );
    const block = documentedBlock('docs/configuration.md', 'ts', 'resolveCompactionConfig(config, registry)');
    const script = snippetScript(
      block,
      'const strategy = await registry.resolve(config.strategy);\nconsole.log(JSON.stringify({ name: strategy.name, options: strategy.options }));',
    );
    expect(JSON.parse(await runScript(application, 'custom-strategy.mjs', script, environment))).toEqual({
      name: 'keep-recent-turns',
      options: { keep: 2 },
    });
  });

  it('archives into the SQLite store as its README shows', async () => {
    await run('npm', ['install', '@compaction/store-sqlite'], {
      cwd: application,
      env: environment,
      timeout: 600_000,
    });
    const strategy = `import { createSlidingWindow as createStrategyForTheStore } from '@compaction/strategy-sliding-window';\nglobalThis.strategy = createStrategyForTheStore();\n`;
    const block = documentedBlock('packages/store-sqlite/README.md', 'ts', 'createCompactor({ strategy');
    const script = `${strategy}${snippetScript(block, 'console.log(JSON.stringify({ records: records.length }));')}`;
    const output = JSON.parse(await runScript(application, 'store-sqlite-readme.mjs', script, environment));
    expect(output.records).toBeGreaterThanOrEqual(0);
    expect(existsSync(join(application, 'compactions.db'))).toBe(true);
  });

  it('installs the CLI globally as its README says and compacts the bundled conversation', async () => {
    const prefix = join(workFolder, 'global');
    const globalEnvironment = {
      npm_config_prefix: prefix,
      PATH: `${join(prefix, 'bin')}:${environment.PATH}`,
    };
    const user = join(workFolder, 'cli-user');
    mkdirSync(user, { recursive: true });
    // The block compacts the reader's conversation.json: here, the conversation the CLI package bundles.
    const block = documentedBlock('packages/cli/README.md', 'sh', 'npm install --global @compaction/cli');
    const bundled = join(prefix, 'lib/node_modules/@compaction/cli/examples/coding-session.json');
    const lines = block.split('\n');
    const install = lines.filter((line) => line.startsWith('npm install'));
    const rest = lines.filter((line) => !line.startsWith('npm install'));
    await runShell(
      [...install, `cp ${bundled} conversation.json`, ...rest].join('\n'),
      user,
      globalEnvironment,
    );
    const compacted = JSON.parse(readFileSync(join(user, 'compacted.json'), 'utf8'));
    expect(compacted.length).toBeLessThan(80);

    // The global CLI, run in the application, finds the application's own strategy package by name.
    const { stderr } = await runShell(
      'compaction compact conversation.json --config compaction.config.json -o cli-compacted.json',
      application,
      globalEnvironment,
    );
    expect(stderr).toContain('with keep-recent-turns');
    expect(existsSync(join(application, 'cli-compacted.json'))).toBe(true);
  });
});
