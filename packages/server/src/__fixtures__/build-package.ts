import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function newestSource(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Builds `dist/` before the tests when it is missing or older than the sources: a compaction thread runs
 * the built worker (`dist/workers/compaction-worker.js`), not the TypeScript source.
 */
export default function setup(): void {
  let built = 0;
  try {
    built = statSync(join(packageDirectory, 'dist', 'workers', 'compaction-worker.js')).mtimeMs;
  } catch {}
  if (built >= newestSource(join(packageDirectory, 'src'))) return;
  execFileSync('pnpm', ['run', 'build'], { cwd: packageDirectory, stdio: 'inherit' });
}
