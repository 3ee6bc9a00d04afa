import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { bundleScenario } from './bundle-scenario.js';
import { runInChromium } from './run-chromium.js';
import { runProcess } from './run-process.js';
import { runInWorkerd } from './run-workerd.js';
import { chromiumBinary, npmRuntimeBinary, type RuntimeBinary } from './runtime-binaries.js';
import type { ScenarioReport } from './scenario.js';

let directory: string;
let reference: ScenarioReport;

/** Runs `host-print.js`, the bundle's command-line host, and reads the one line of JSON it prints. */
async function runPrintHost(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const output = await runProcess(command, [...args, 'host-print.js'], { cwd: directory, env });
  return JSON.parse(output) as ScenarioReport;
}

/**
 * The binary, or: in CI (where `.ci/run` installs every runtime) a failure that says what is missing; on a
 * developer's machine a skip that says it. Never a silent pass.
 */
function binaryOrSkip(binary: RuntimeBinary, context: TestContext): string {
  if ('path' in binary) return binary.path;
  if (process.env.CI) throw new Error(`This runtime cannot be run here: ${binary.unavailable}`);
  context.skip(binary.unavailable);
  throw new Error('unreachable');
}

/** The report's result equals Node's byte for byte; on a difference, the first place they part is shown. */
function expectNodeResult(report: ScenarioReport) {
  if (report.result === reference.result) return;
  let index = 0;
  while (report.result[index] === reference.result[index]) index++;
  const around = (text: string) => text.slice(Math.max(0, index - 200), index + 200);
  expect(around(report.result), `results part at character ${index}`).toBe(around(reference.result));
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'compaction-runtimes-'));
  await bundleScenario(directory);
  reference = await runPrintHost(process.execPath, []);
});

afterAll(async () => {
  if (directory) await rm(directory, { recursive: true, force: true });
});

describe('the same compaction in every runtime the core promises', () => {
  it('compacts in Node with every offline strategy, as the reference', () => {
    const { runs } = JSON.parse(reference.result) as {
      runs: Record<
        string,
        { compacted: boolean; event: { idIsVersion4UUID: boolean; usedFallback: boolean } }
      >;
    };
    expect(Object.keys(runs)).toEqual([
      'tool-result-truncation',
      'pruning',
      'sliding-window',
      'summarization (artifact trail)',
      'pipeline',
    ]);
    for (const run of Object.values(runs)) {
      expect(run).toMatchObject({ compacted: true, event: { idIsVersion4UUID: true, usedFallback: false } });
    }
  });

  it('gives the same result in Bun', async (context) => {
    const bun = binaryOrSkip(npmRuntimeBinary('bun'), context);
    expectNodeResult(await runPrintHost(bun, [], { ...process.env, DO_NOT_TRACK: '1' }));
  });

  it('gives the same result in Deno', async (context) => {
    const deno = binaryOrSkip(npmRuntimeBinary('deno'), context);
    // No config, lock file or permissions: the bundle needs none; and no update check over the network.
    const env = {
      ...process.env,
      DENO_NO_UPDATE_CHECK: '1',
      DENO_DIR: join(directory, '.deno'),
      NO_COLOR: '1',
    };
    expectNodeResult(await runPrintHost(deno, ['run', '--no-config', '--no-lock', '--no-prompt'], env));
  });

  it('gives the same result in workerd', async (context) => {
    const workerd = binaryOrSkip(npmRuntimeBinary('workerd'), context);
    expectNodeResult(await runInWorkerd(workerd, directory));
  });

  it('gives the same result in headless Chromium, on an insecure origin without crypto.randomUUID', async (context) => {
    const chromium = binaryOrSkip(chromiumBinary(), context);
    const report = await runInChromium(chromium, directory);
    // The page must be where crypto.randomUUID is missing, or the fallback would go untested.
    expect(report.environment).toEqual({ secureContext: false, randomUUID: false });
    expectNodeResult(report);
  });
});
