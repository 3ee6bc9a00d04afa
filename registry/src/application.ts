import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnvironment } from './environment.js';
import { repositoryRoot } from './publish-workspace.js';
import { run } from './run.js';

/**
 * The environment of a user's machine that has only Node, npm (and for one scenario pnpm) and one setting: the
 * `@compaction` scope comes from the local registry (a user config of its own; every other package from the
 * usual registry).
 */
export function userEnvironment(workFolder: string, registryUrl: string, extra: NodeJS.ProcessEnv = {}) {
  const userConfig = join(workFolder, 'user.npmrc');
  writeFileSync(
    userConfig,
    `@compaction:registry=${registryUrl}\nfund=false\naudit=false\nupdate-notifier=false\n`,
  );
  // The machine's own npm settings (such as the certificate authorities of its network) stay in force, even
  // for a global install into another prefix, where npm would look for them under that prefix instead.
  const globalConfig = execFileSync('npm', ['config', 'get', 'globalconfig'], {
    env: cleanEnvironment(),
    encoding: 'utf8',
  }).trim();
  return cleanEnvironment({
    npm_config_userconfig: userConfig,
    npm_config_globalconfig: globalConfig,
    ...extra,
  });
}

/** What a documented snippet takes as given: the values of docs/snippet-globals.d.ts, for the application. */
const prelude = `import { existsSync, readFileSync } from 'node:fs';
const read = (file) => JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8'));
globalThis.history = read('./conversation.json');
globalThis.messages = globalThis.history;
if (existsSync(new URL('./compaction.config.json', import.meta.url))) globalThis.config = read('./compaction.config.json');
`;

/**
 * An empty application folder outside the repository: a `package.json` of an ES module application, the
 * bundled coding conversation as `conversation.json`, and the prelude its snippets import.
 */
export function createApplication(folder: string): string {
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'package.json'),
    `${JSON.stringify({ name: 'application', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
  );
  copyFileSync(
    join(repositoryRoot, 'packages/cli/examples/coding-session.json'),
    join(folder, 'conversation.json'),
  );
  writeFileSync(join(folder, 'prelude.mjs'), prelude);
  return folder;
}

/** Writes `script` into the application and runs it with Node there, returning what it printed. */
export async function runScript(
  folder: string,
  name: string,
  script: string,
  environment: NodeJS.ProcessEnv,
): Promise<string> {
  writeFileSync(join(folder, name), script);
  const { stdout } = await run(process.execPath, [name], { cwd: folder, env: environment, timeout: 120_000 });
  return stdout;
}
