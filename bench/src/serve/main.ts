/**
 * `pnpm bench:serve`: `/v1/health` latency of `compaction serve` while clients post large `/v1/compact`
 * bodies, with every compaction on the event loop (`compactionThreads: 0`) and then on the default pool of
 * compaction threads, in one run, after the same time without load (what the machine alone gives). The server and the load run in processes of their own, so the health checks
 * measure the server only. Saves bench/results/serve.json and writes the serve figures of bench/README.md from
 * it. `--seconds <n>` sets how long each server is loaded (default 20).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { readmePath, withGeneratedSection } from '../readme/generated-section.js';
import { serveReadmeFigures, serveSectionName } from './readme-figures.js';
import { type HealthUnderLoad, type ServeResults, serveResultsFile } from './serve-results.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '20' } } });
const seconds = Number(values.seconds);
const clients = 2;
/** Asked of the body generator; the body is a little larger (its last round). */
const requestedBytes = 8_000_000;
let bodyBytes = requestedBytes;
const checkIntervalMilliseconds = 10;

/** The first message a child sends. */
function firstMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message as T));
    child.once('exit', (code) => reject(new Error(`a bench process exited with ${code} before answering`)));
  });
}

const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;

async function measure(mode: HealthUnderLoad['mode']): Promise<HealthUnderLoad> {
  // The default pool: one thread less than the cores, at least one (as `compaction serve` starts it).
  const threads = mode === 'inline' ? 0 : Math.max(1, availableParallelism() - 1);
  const server = fork(new URL('./serve-process.ts', import.meta.url), [String(threads)]);
  const { url } = await firstMessage<{ url: string }>(server);
  // Without load, the same time: what the machine alone does to the latency.
  const load = fork(new URL('./load-process.ts', import.meta.url), [
    url,
    String(mode === 'idle' ? 0 : clients),
    String(seconds),
    String(requestedBytes),
  ]);
  const loaded = firstMessage<{ statuses: Record<string, number>; bodyBytes: number }>(load);
  let loading = true;
  loaded.finally(() => {
    loading = false;
  });
  const latencies: number[] = [];
  while (loading) {
    const started = performance.now();
    const response = await fetch(`${url}/v1/health`);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`/v1/health answered ${response.status}`);
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, checkIntervalMilliseconds));
  }
  const { statuses, bodyBytes: sent } = await loaded;
  bodyBytes = sent;
  server.send('stop');
  await new Promise((resolve) => server.once('exit', resolve));
  latencies.sort((first, second) => first - second);
  return {
    mode,
    threads,
    checks: latencies.length,
    medianMilliseconds: percentile(latencies, 0.5),
    p99Milliseconds: percentile(latencies, 0.99),
    maxMilliseconds: latencies.at(-1)!,
    compactions: statuses,
  };
}

const loadAverage = loadavg()[0]!;
const runs = [await measure('idle'), await measure('inline'), await measure('threads')];
const results: ServeResults = {
  node: process.version,
  cores: cpus().length,
  loadAverage,
  date: new Date().toISOString().slice(0, 10),
  clients,
  bodyBytes,
  seconds,
  checkIntervalMilliseconds,
  runs,
};
serveResultsFile.save(results);
writeFileSync(
  readmePath,
  withGeneratedSection(readFileSync(readmePath, 'utf8'), serveSectionName, serveReadmeFigures(results)),
);
console.log(serveReadmeFigures(results));
