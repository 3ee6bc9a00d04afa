/**
 * Vitest setup of every package (each package's vitest.config.ts lists it in `setupFiles`): fast-check's
 * seed for the test file, from `FC_SEED` when it is set (with `FC_PATH`, the path of one counterexample) and
 * drawn otherwise, is made fast-check's global seed, so every property generates its values from it and the
 * same seed generates the same values again. When a property fails, one line gives the seed and the command
 * that replays it:
 *
 *     fast-check seed 123456789 (replay: FC_SEED=123456789 pnpm --filter @compaction/core test)
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeEach } from 'vitest';

/** The part of fast-check's API used here. */
interface FastCheck {
  configureGlobal(parameters: object): void;
  readConfigureGlobal(): object;
}

interface Manifest {
  name: string;
  exports?: Record<string, { import?: { default?: string } }>;
}

// Vitest runs in the folder of the package under test.
const packageFolder = process.cwd();
const packageName = readManifest(join(packageFolder, 'package.json')).name;

const seed = integerOf(process.env.FC_SEED) ?? drawSeed();
const path = process.env.FC_PATH || undefined;

const fastCheck = await importFastCheck();
fastCheck?.configureGlobal({ ...fastCheck.readConfigureGlobal(), seed, ...(path ? { path } : {}) });

beforeEach(({ onTestFailed }) => {
  onTestFailed(({ task }) => {
    const failedSeed = seedOfFailure(task.result?.errors ?? []);
    if (failedSeed !== undefined) console.error(replayLine(failedSeed));
  });
});

/** The line printed for a failed property. */
function replayLine(failedSeed: number): string {
  return `fast-check seed ${failedSeed} (replay: FC_SEED=${failedSeed} pnpm --filter ${packageName} test)`;
}

/**
 * The seed a property failed with, read from its error: `fc.assert` reports `{ seed: -123, path: "0:1" }`,
 * the conformance suite of @compaction/testing `(seed -123, path "0:1")`. `undefined` for other failures.
 */
function seedOfFailure(errors: readonly { message?: string }[]): number | undefined {
  for (const error of errors) {
    const found = /\bseed:? (-?\d+), path/.exec(error.message ?? '');
    if (found) return Number(found[1]);
  }
  return undefined;
}

/** The seed given in `FC_SEED`; a value that is not an integer is refused rather than silently replaced. */
function integerOf(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (!/^-?\d+$/.test(value.trim())) throw new Error(`FC_SEED must be an integer, got "${value}"`);
  return Number(value);
}

/** A seed as fast-check draws its own: a 32-bit integer (kept positive, to read and type). */
function drawSeed(): number {
  return globalThis.crypto.getRandomValues(new Uint32Array(1))[0]! >>> 1;
}

/**
 * The fast-check that the package's tests import (its ECMAScript module build: the global settings live in
 * the module, so it must be the very module the tests load): the package's own, or else the one of
 * @compaction/testing, whose conformance suite runs properties for packages that have none of their own.
 * `undefined` when there is neither.
 */
async function importFastCheck(): Promise<FastCheck | undefined> {
  const manifestPath =
    resolveFrom(join(packageFolder, 'package.json'), 'fast-check/package.json') ??
    resolveFrom(
      resolveFrom(join(packageFolder, 'package.json'), '@compaction/testing/package.json'),
      'fast-check/package.json',
    );
  if (manifestPath === undefined) return undefined;
  const entry = readManifest(manifestPath).exports?.['.']?.import?.default;
  if (entry === undefined) return undefined;
  const module = (await import(pathToFileURL(join(dirname(manifestPath), entry)).href)) as {
    default: FastCheck;
  };
  return module.default;
}

/** Where `specifier` resolves from the file `origin`, or `undefined`. */
function resolveFrom(origin: string | undefined, specifier: string): string | undefined {
  if (origin === undefined) return undefined;
  try {
    return createRequire(origin).resolve(specifier);
  } catch {
    return undefined;
  }
}

function readManifest(file: string): Manifest {
  return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
}
