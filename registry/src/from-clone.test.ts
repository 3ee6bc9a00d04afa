import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, inject, it } from 'vitest';
import { userEnvironment } from './application.js';
import { documentedBlock } from './documented-snippet.js';
import { repositoryRoot } from './publish-workspace.js';
import { run } from './run.js';

const prefix = mkdtempSync(join(inject('workFolder'), 'clone-global-'));
afterAll(() => rmSync(prefix, { recursive: true, force: true }));

it("puts the clone's compaction on the PATH with the README's one command", async () => {
  // The build leaves the command executable, and the committed entry that links it is too.
  const executable = (file: string) =>
    (statSync(join(repositoryRoot, 'packages/cli', file)).mode & 0o111) !== 0;
  expect(executable('dist/bin.js')).toBe(true);
  expect(executable('bin/compaction.js')).toBe(true);

  const environment = userEnvironment(inject('workFolder'), inject('registryUrl'), {
    npm_config_prefix: prefix,
  });
  const command = documentedBlock('README.md', 'sh', 'npm install --global ./packages/cli');
  await run('bash', ['-e', '-c', command], { cwd: repositoryRoot, env: environment, timeout: 300_000 });
  const conversation = join(repositoryRoot, 'packages/cli/examples/coding-session.json');
  const output = join(prefix, 'compacted.json');
  await run(join(prefix, 'bin', 'compaction'), ['compact', conversation, '-o', output], {
    cwd: prefix,
    env: environment,
  });
  expect(JSON.parse(readFileSync(output, 'utf8')).length).toBeLessThan(80);
});
