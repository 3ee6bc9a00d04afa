import { join } from 'node:path';
import { expect, inject, it } from 'vitest';
import { createApplication, userEnvironment } from './application.js';
import { repositoryRoot } from './publish-workspace.js';
import { run } from './run.js';

const checker = join(repositoryRoot, 'scripts/check-doc-snippets.mjs');

it("runs the docs' TypeScript blocks in an application that installed what they import", async () => {
  const workFolder = inject('workFolder');
  const environment = userEnvironment(workFolder, inject('registryUrl'));
  const application = createApplication(join(workFolder, 'docs-application'));
  const { stdout } = await run(process.execPath, [checker, '--imports'], { cwd: repositoryRoot });
  // What the blocks import, and what the prelude that gives their declared names values does.
  const packages = new Set([
    ...(JSON.parse(stdout) as string[]),
    'ai',
    '@compaction/strategy-sliding-window',
  ]);
  await run('npm', ['install', ...packages], { cwd: application, env: environment, timeout: 600_000 });
  const { stdout: report } = await run(process.execPath, [checker, '--run', application], {
    cwd: repositoryRoot,
    env: environment,
    timeout: 600_000,
  });
  expect(report).toMatch(/^\d+ code blocks ran in /m);
});
