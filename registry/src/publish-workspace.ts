import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnvironment } from './environment.js';
import { run } from './run.js';

/** The repository's root folder. */
export const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The names of the workspace's public packages: every package under `packages/` that is not private. */
export function publicPackageNames(): string[] {
  const folder = join(repositoryRoot, 'packages');
  return readdirSync(folder)
    .map((name) => JSON.parse(readFileSync(join(folder, name, 'package.json'), 'utf8')))
    .filter((manifest: { private?: boolean }) => manifest.private !== true)
    .map((manifest: { name: string }) => manifest.name)
    .sort();
}

/**
 * Publishes every public package of the workspace to the registry with the release flow's own command
 * (`pnpm publish -r`, which turns `workspace:` ranges into versions), and checks the registry has each.
 */
export async function publishWorkspace(registryUrl: string, publishConfig: string): Promise<string[]> {
  const environment = cleanEnvironment({ npm_config_userconfig: publishConfig });
  await run('pnpm', ['publish', '--recursive', '--registry', registryUrl, '--no-git-checks'], {
    cwd: repositoryRoot,
    env: environment,
    timeout: 600_000,
  });
  const names = publicPackageNames();
  for (const name of names) {
    const response = await fetch(`${registryUrl}${name.replace('/', '%2f')}`);
    if (!response.ok)
      throw new Error(`${name} is not on the local registry after publishing: ${response.status}`);
  }
  return names;
}
