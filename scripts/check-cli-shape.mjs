#!/usr/bin/env node
// Keeps @compaction/cli the thin shell it is meant to be (commands, flags, output over the packages that do
// the work): its non-test source under 3,000 lines. Over it, it warns; with --strict or CLI_SHAPE_STRICT=1 it
// fails instead.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const maximumLines = 2999;
// biome-ignore lint/suspicious/noUndeclaredEnvVars: run by check:packages, not by a turbo task; nothing is cached.
const strict = process.argv.includes('--strict') || process.env.CLI_SHAPE_STRICT === '1';

const root = resolve(new URL('..', import.meta.url).pathname);
const sources = listSources(join(root, 'packages/cli/src'));
const lines = sources.reduce((total, file) => total + lineCount(readFileSync(file, 'utf8')), 0);

console.log(`cli: ${lines} non-test source lines in ${sources.length} files (limit ${maximumLines})`);
if (lines > maximumLines) {
  console.error(
    `cli shape ${strict ? 'error' : 'warning'}: ${lines} non-test source lines is over ${maximumLines}: ` +
      'what is not commands, flags or output belongs in the package that does the work',
  );
  if (strict) process.exit(1);
}

/** Non-test TypeScript: neither `*.test.ts` files nor the test-only helpers in `__fixtures__`. */
function listSources(directory) {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === '__fixtures__' ? [] : listSources(path);
    return entry.name.endsWith('.ts') && !/\.test(-d)?\.ts$/.test(entry.name) ? [path] : [];
  });
}

function lineCount(text) {
  if (text.length === 0) return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}
