import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createApplication, runScript, userEnvironment } from './application.js';
import { documentedBlock, snippetScript } from './documented-snippet.js';
import { run } from './run.js';

// An application installed with pnpm, whose strict node_modules lets core see only its own dependencies: a
// strategy picked by name is found only by resolving from the application.
const workFolder = inject('workFolder');
const application = join(workFolder, 'pnpm-application');
let environment: NodeJS.ProcessEnv;

beforeAll(() => {
  environment = userEnvironment(workFolder, inject('registryUrl'));
  createApplication(application);
  // Strict: nothing hoisted, not even into node_modules/.pnpm/node_modules, where core would otherwise find
  // every package of the application by walking up from its own folder.
  writeFileSync(join(application, '.npmrc'), 'hoist=false\n');
});

/** A model of the AI SDK's own test helpers that answers every call with one text, reporting its usage. */
const mockModel = `import { MockLanguageModelV3 } from 'ai/test';
globalThis.model = new MockLanguageModelV3({
  doGenerate: async () => ({
    content: [{ type: 'text', text: 'Done.' }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: 1000, noCache: 1000, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 2, text: 2, reasoning: 0 },
    },
    warnings: [],
  }),
});
globalThis.conversation = [{ role: 'user', content: 'Fix the failing test.' }];
`;

describe('an application installed with pnpm from the registry', () => {
  it('installs the AI SDK integration as its README says', async () => {
    const install = documentedBlock('packages/ai-sdk/README.md', 'sh', 'pnpm add @compaction/ai-sdk');
    await run('bash', ['-e', '-c', install], { cwd: application, env: environment, timeout: 600_000 });
  });

  it('picks strategies by name from a JSON config in a strict node_modules', async () => {
    const readme = 'packages/strategy-sliding-window/README.md';
    writeFileSync(
      join(application, 'compaction.config.json'),
      documentedBlock(readme, 'json', '"windowTokens"'),
    );
    const block = documentedBlock(readme, 'ts', 'createStrategyRegistry()');
    const script = snippetScript(
      block,
      `const result = await compactor.compact(history, { targetTokens: 12_000 });
console.log(JSON.stringify({ compacted: result.compacted, strategy: result.event?.strategy }));`,
    );
    const output = JSON.parse(await runScript(application, 'by-name.mjs', script, environment));
    expect(output).toEqual({ compacted: true, strategy: 'pipeline' });
  });

  it('says where it looked for a strategy that is not installed', async () => {
    const script = `import { createStrategyRegistry } from '@compaction/core';
await createStrategyRegistry().resolve('absent').catch((error) => console.log(error.message));`;
    const message = await runScript(application, 'absent.mjs', script, environment);
    expect(message).toContain('Install @compaction/strategy-absent to use it.');
    expect(message).toContain(`Looked from: @compaction/core's own folder, ${application}.`);
  });

  it('runs the AI SDK setup of its README with its strategy', async () => {
    const readme = 'packages/ai-sdk/README.md';
    const strategy = documentedBlock(readme, 'ts', 'const strategy = createPipeline');
    const setup = documentedBlock(readme, 'ts', 'compactionMiddleware({ strategy, budget })');
    const script = `${mockModel}${snippetScript(`${strategy}\n${setup}`, 'console.log(JSON.stringify({ calls: model.doGenerateCalls.length }));')}`;
    const output = JSON.parse(await runScript(application, 'ai-sdk-readme.mjs', script, environment));
    expect(output).toEqual({ calls: 2 });
  });
});
