/**
 * `pnpm bench:cli`: what the CLI costs from start to result on a small input, against `node -e 0` (Node's own
 * start), as medians of processes started in turns; and what the first ICU number formatting of a process
 * costs, which the CLI avoids. Saves bench/results/cli.json and writes the CLI figures of bench/README.md
 * from it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { missingTranscriptsMessage, transcriptsDirectory } from '@compaction/testing/transcripts';
import { readmePath, withGeneratedSection } from '../readme/generated-section.js';
import { median } from '../strategies/timing.js';
import { type CliResults, cliResultsFile } from './cli-results.js';
import { cliReadmeFigures, cliSectionName } from './readme-figures.js';

const runs = 21;
/** A small real transcript: 14 messages, about 3,800 tokens. */
const input = 'openhands/fncall-llm-message.json';

const directory = transcriptsDirectory();
if (directory === undefined) {
  console.error(missingTranscriptsMessage);
  process.exit(1);
}
const bin = join(
  dirname(createRequire(import.meta.url).resolve('@compaction/cli/package.json')),
  'dist/bin.js',
);
if (!existsSync(bin)) {
  console.error(`${bin} is missing: build the CLI first (pnpm --filter @compaction/cli build)`);
  process.exit(1);
}

/** Wall-clock milliseconds of one process from spawn to exit; it must succeed. */
function spawnMilliseconds(args: readonly string[]): number {
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { encoding: 'utf8' });
  const elapsed = performance.now() - start;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${result.stderr}`);
  return elapsed;
}

/** The milliseconds a fresh process reports for `code`, which prints them. */
function reportedMilliseconds(code: string): number {
  const result = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`node -e failed: ${result.stderr}`);
  return Number(result.stdout);
}

const firstCall = (call: string) =>
  `const start = performance.now(); ${call}; process.stdout.write(String(performance.now() - start));`;

const loadAverage = loadavg()[0]!;
const check = spawnSync(process.execPath, [bin, 'count', join(directory, input)], { encoding: 'utf8' });
if (check.status !== 0 || !/tokens in \d+ messages/.test(check.stdout)) {
  throw new Error(`compaction count did not count: ${check.stderr || check.stdout}`);
}

const samples = {
  node: [] as number[],
  cli: [] as number[],
  toLocaleString: [] as number[],
  numberFormat: [] as number[],
};
for (let run = 0; run < runs; run++) {
  samples.node.push(spawnMilliseconds(['-e', '0']));
  samples.cli.push(spawnMilliseconds([bin, 'count', join(directory, input)]));
  samples.toLocaleString.push(reportedMilliseconds(firstCall("(48210).toLocaleString('en-US')")));
  samples.numberFormat.push(reportedMilliseconds(firstCall("new Intl.NumberFormat('en-US').format(48210)")));
}

const results: CliResults = {
  node: process.version,
  cores: cpus().length,
  loadAverage,
  date: new Date().toISOString().slice(0, 10),
  runs,
  input,
  nodeMilliseconds: median(samples.node),
  cliMilliseconds: median(samples.cli),
  firstToLocaleStringMilliseconds: median(samples.toLocaleString),
  firstNumberFormatMilliseconds: median(samples.numberFormat),
};
cliResultsFile.save(results);
writeFileSync(
  readmePath,
  withGeneratedSection(readFileSync(readmePath, 'utf8'), cliSectionName, cliReadmeFigures(results)),
);
console.log(cliReadmeFigures(results));
