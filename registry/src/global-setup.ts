import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalRegistry } from './local-registry.js';
import { publishWorkspace } from './publish-workspace.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The local registry's URL, with every public package published to it. */
    registryUrl: string;
    /** A throwaway folder outside the repository for the applications. */
    workFolder: string;
  }
}

/** Starts the local registry and publishes the workspace once for every scenario; stops and removes it after. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const workFolder = mkdtempSync(join(tmpdir(), 'compaction-registry-check-'));
  const started = performance.now();
  const registry = await startLocalRegistry(join(workFolder, 'registry'));
  try {
    const names = await publishWorkspace(registry.url, registry.publishConfig);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`Published ${names.length} packages to ${registry.url} in ${seconds} s`);
  } catch (error) {
    await registry.close();
    rmSync(workFolder, { recursive: true, force: true });
    throw error;
  }
  project.provide('registryUrl', registry.url);
  project.provide('workFolder', workFolder);
  return async () => {
    await registry.close();
    rmSync(workFolder, { recursive: true, force: true });
  };
}
