import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentVersions } from './agent-versions.mjs';

/** Where the agents are installed: ignored by git, and outside the pnpm workspace. */
export const installFolder = join(dirname(fileURLToPath(import.meta.url)), '.install');

/** The installed version of a package, or undefined when it is not installed. */
export function installedVersion(packageName) {
  const manifest = join(installFolder, 'node_modules', packageName, 'package.json');
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : undefined;
}

export const binaryPath = (binary) => join(installFolder, 'node_modules', '.bin', binary);

/** Installs the pinned agents with npm into agents/.install, unless they are there at those versions already. */
export function installAgents(log) {
  const missing = Object.entries(agentVersions).filter(
    ([name, version]) => installedVersion(name) !== version,
  );
  if (missing.length === 0) return;
  log(
    `installing ${missing.map(([name, version]) => `${name}@${version}`).join(', ')} into ${installFolder}`,
  );
  mkdirSync(installFolder, { recursive: true });
  const manifest = join(installFolder, 'package.json');
  const temporary = `${manifest}.${process.pid}.tmp`;
  writeFileSync(
    temporary,
    `${JSON.stringify({ name: 'compaction-agents-install', private: true, dependencies: agentVersions }, null, 2)}\n`,
  );
  renameSync(temporary, manifest);
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--save-exact'], {
    cwd: installFolder,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`npm install of the agents failed (exit ${result.status})`);
}
