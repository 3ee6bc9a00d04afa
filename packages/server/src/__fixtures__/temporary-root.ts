import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder that holds every temporary folder of this test run; removed when the run ends. */
    temporaryRoot: string;
  }
}

/**
 * Makes one folder for the run's temporary folders and removes it, with whatever the tests and the processes
 * they started left in it, when the run ends: a folder per test would otherwise stay in the system's
 * temporary folder forever.
 */
export default function setup(project: TestProject): () => void {
  const root = mkdtempSync(join(tmpdir(), 'compaction-server-run-'));
  project.provide('temporaryRoot', root);
  return () => rmSync(root, { recursive: true, force: true });
}
