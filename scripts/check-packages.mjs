#!/usr/bin/env node
// Checks every published package: the parts each must have (CONTRIBUTING.md, "Layout of a package"),
// the package.json fields ESM-only packages need, publint on what would be packed, and
// @arethetypeswrong/cli on the tarball pnpm packs (types resolve for ESM consumers). It runs
// check-import-circles.mjs, check-function-length.mjs, check-core-shape.mjs and check-cli-shape.mjs first.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

const execFileAsync = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;
const packagesDirectory = join(root, 'packages');
const problems = [];

// Checks of the whole house, before the packages one by one: no import circles, no function over 100 lines,
// core's shape (its runtime exports fail over the limit; its lines only warn until they are under theirs, or
// CORE_SHAPE_STRICT=1 is set) and the CLI's (its lines warn over 3,000, or fail with CLI_SHAPE_STRICT=1).
for (const [check, ...flags] of [
  ['check-import-circles.mjs'],
  ['check-function-length.mjs'],
  ['check-core-shape.mjs', '--strict-exports'],
  ['check-cli-shape.mjs', '--strict'],
]) {
  try {
    execFileSync(process.execPath, [join(root, 'scripts', check), ...flags], { stdio: 'inherit' });
  } catch {
    process.exit(1);
  }
}

const folders = readdirSync(packagesDirectory)
  .sort()
  .filter((folder) => existsSync(join(packagesDirectory, folder, 'package.json')));
// Two packages at a time (the CI machines have two cores): packing waits on the disk and child processes as
// much as on the processor. Problems are reported in the order of the folders whatever finishes first.
const problemsOf = new Map(folders.map((folder) => [folder, []]));
const tarballs = mkdtempSync(join(tmpdir(), 'compaction-packages-'));
await inPool(folders, 2, async (folder) => {
  const directory = join(packagesDirectory, folder);
  const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));
  const report = (message) => problemsOf.get(folder).push(`${manifest.name ?? folder}: ${message}`);

  checkParts(directory, report);
  checkManifest(folder, manifest, report);

  const { messages, pkg } = await publint({
    pkgDir: directory,
    level: 'suggestion',
    strict: true,
    pack: 'pnpm',
  });
  for (const message of messages) report(`publint: ${formatMessage(message, pkg) ?? message.code}`);

  // attw reads a tarball packed by pnpm, as a release packs it: its own --pack (through npm) took seconds more.
  const packed = await execFileAsync('pnpm', ['pack', '--pack-destination', tarballs, '--json'], {
    cwd: directory,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  const { filename: tarball, files: packedFiles } = JSON.parse(packed.stdout);
  for (const path of testOnlyPaths(packedFiles.map((file) => file.path))) {
    report(
      `packs ${path}, which is for tests only: exclude it in "files" ("!**/__fixtures__", "!**/*.test.ts")`,
    );
  }
  try {
    await execFileAsync(
      join(root, 'node_modules', '.bin', 'attw'),
      [tarball, '--profile', 'esm-only', '--format', 'table-flipped', '--no-color'],
      { cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (error) {
    report(`@arethetypeswrong/cli:\n${error.stdout || error.message}`);
  }
  console.log(`checked ${manifest.name}`);
});
rmSync(tarballs, { recursive: true, force: true });
problems.push(...folders.flatMap((folder) => problemsOf.get(folder)));

if (problems.length > 0) {
  console.error(`\n${problems.length} packaging problem(s):\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log('every package has its parts, packs cleanly and resolves its types');

function checkParts(directory, report) {
  for (const part of ['src/index.ts', 'README.md', 'CHANGELOG.md', 'tsconfig.build.json', 'tsconfig.json']) {
    if (!existsSync(join(directory, part))) report(`missing ${part}`);
  }
  if (!listFiles(join(directory, 'src')).some((file) => file.endsWith('.test.ts')))
    report('has no tests (src/**/*.test.ts)');
  const buildConfig = existsSync(join(directory, 'tsconfig.build.json'))
    ? JSON.parse(readFileSync(join(directory, 'tsconfig.build.json'), 'utf8'))
    : {};
  if (buildConfig.extends !== '../../config/tsconfig.package.json') {
    report(
      `tsconfig.build.json must extend the shared build preset (${relative(directory, join(root, 'config/tsconfig.package.json'))})`,
    );
  }
}

function checkManifest(folder, manifest, report) {
  if (manifest.name !== `@compaction/${folder}`) report(`name should be @compaction/${folder}`);
  if (manifest.type !== 'module') report('"type" must be "module" (ESM only)');
  if (manifest.sideEffects !== false) report('"sideEffects" must be false');
  if (!manifest.engines?.node) report('"engines.node" is missing');
  if (!manifest.license) report('"license" is missing');
  const main = manifest.exports?.['.'];
  if (!main?.types || !main.import || !main.default)
    report('exports["."] needs "types", "import" and "default"');
  if (manifest.publishConfig?.access !== 'public') report('publishConfig.access must be "public"');
  for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) {
    if (name.startsWith('@compaction/') && range !== 'workspace:^')
      report(`peer dependency ${name} should be "workspace:^"`);
  }
}

/**
 * The packed paths that only tests use: test helpers under a `__fixtures__` folder (recorded answers, fake
 * servers), snapshots, and the test files themselves. Users of a package never load them, and fixtures can hold
 * recorded requests nobody meant to publish.
 */
function testOnlyPaths(paths) {
  return paths.filter(
    (path) =>
      /(^|\/)(__fixtures__|__snapshots__)\//.test(path) || /\.test(-d)?\.(ts|tsx|js|mjs|cjs)$/.test(path),
  );
}

function listFiles(directory) {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(directory, entry.name)) : [join(directory, entry.name)],
  );
}

/** Runs `task` on every item, at most `size` at a time. */
async function inPool(items, size, task) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
}
