import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

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
 * Builds a package's `dist/` before its tests when `builtFile` (a path inside `dist/`) is missing or older than
 * any non-test source: tests that start the built program (a binary, a thread's worker) would otherwise run
 * yesterday's code.
 */
export function buildWhenStale(packageDirectory: string, builtFile: string): void {
  let built = 0;
  try {
    built = statSync(join(packageDirectory, 'dist', builtFile)).mtimeMs;
  } catch {}
  if (built >= newestSource(join(packageDirectory, 'src'))) return;
  execFileSync('pnpm', ['run', 'build'], { cwd: packageDirectory, stdio: 'inherit' });
}
