/**
 * `pnpm bench:serve`: the latency of `/v1/health` (the proxy's `/compaction/status`) while clients load the
 * server with large compactions, every compaction on the event loop (`compactionThreads: 0`) and then on the
 * default pool of compaction threads, side by side in one run, after the same time without load (what the machine
 * alone gives). Three loads: large `/v1/compact` bodies; sessions grown one tool round per append, which compact
 * as they pass their trigger; and large conversations through `compaction proxy`, each compacted on its way. The
 * servers and the loads run in processes of their own, so the health checks measure the server only. Saves
 * bench/results/serve.json and writes the serve figures of bench/README.md from it. `--seconds <n>` sets how long
 * each server is loaded (default 20); `--loads proxy` (a comma-separated list of `compact`, `sessions`, `proxy`)
 * runs only those loads and prints their figures, saving nothing.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { readmePath, withGeneratedSection } from '../readme/generated-section.js';
import { serveReadmeFigures, serveSectionName } from './readme-figures.js';
import { type HealthUnderLoad, type ServeResults, serveResultsFile } from './serve-results.js';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '20' }, loads: { type: 'string' } },
});
const seconds = Number(values.seconds);
const allLoads = ['compact', 'sessions', 'proxy'] as const;
const chosenLoads = values.loads === undefined ? allLoads : values.loads.split(',');
for (const load of chosenLoads) {
  if (!(allLoads as readonly string[]).includes(load)) {
    console.error(`--loads takes ${allLoads.join(', ')}; "${load}" is none of them`);
    process.exit(1);
  }
}
/** Only a run of every load is saved and written into the README. */
const everyLoad = allLoads.every((load) => chosenLoads.includes(load));
const clients = 2;
/** Asked of the body generator; the body is a little larger (its last round, UTF-8). */
const requestedBytes = 8_000_000;
let bodyBytes = requestedBytes;
const checkIntervalMilliseconds = 10;
/**
 * The session and proxy loads: a long-context model's window, so that a conversation reaches a few megabytes
 * before it compacts (the default 4 MB `--max-session-size` holds a session at its trigger).
 */
const contextWindow = 1_000_000;
/** Sessions start under their trigger (about 850,000 tokens) and pass it after a few appends. */
const sessionStartBytes = 3_000_000;
const roundBytes = 200_000;
/** A proxied conversation just over the trigger of that window. */
const proxyRequestedBytes = 3_800_000;
let proxyBodyBytes = proxyRequestedBytes;

const bin = join(
  dirname(createRequire(import.meta.url).resolve('@compaction/cli/package.json')),
  'dist/bin.js',
);
if (!existsSync(bin)) {
  console.error(`${bin} is missing: build the CLI first (pnpm --filter @compaction/cli build)`);
  process.exit(1);
}

/** The first message a child sends. */
function firstMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message as T));
    child.once('exit', (code) => reject(new Error(`a bench process exited with ${code} before answering`)));
  });
}

const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A server of the bench: where it is, where its health is asked, and how it stops. */
interface BenchServer {
  url: string;
  healthPath: string;
  /** Its process: told by SIGUSR2 that the load starts, for its event loop figures. */
  pid: number;
  /** Where its event loop figures are written when it exits. */
  eventLoopFile: string;
  stop(): Promise<void>;
}

const eventLoopMonitor = new URL('./event-loop-monitor.mjs', import.meta.url).href;
const eventLoopFolder = mkdtempSync(join(tmpdir(), 'compaction-bench-event-loop-'));
let eventLoopFiles = 0;
/** Where a server's event loop figures go, and the environment that tells its monitor so. */
function eventLoopFileAndEnvironment() {
  const file = join(eventLoopFolder, `${eventLoopFiles++}.json`);
  return { file, env: { ...process.env, COMPACTION_BENCH_EVENT_LOOP_FILE: file } };
}

/** `compaction serve` (the library's `createCompactionServer`) in a process of its own. */
async function startServe(threads: number, window?: number): Promise<BenchServer> {
  const { file, env } = eventLoopFileAndEnvironment();
  const server = fork(
    new URL('./serve-process.ts', import.meta.url),
    [String(threads), ...(window === undefined ? [] : [String(window)])],
    { env, execArgv: [...process.execArgv, '--import', eventLoopMonitor] },
  );
  const { url } = await firstMessage<{ url: string }>(server);
  return {
    url,
    healthPath: '/v1/health',
    pid: server.pid!,
    eventLoopFile: file,
    stop: async () => {
      server.send('stop');
      await new Promise((resolve) => server.once('exit', resolve));
    },
  };
}

/** `compaction proxy` (the built CLI) in a process of its own, in front of a loopback upstream. */
async function startProxy(threads: number): Promise<BenchServer> {
  const upstream = fork(new URL('../proxy/upstream-process.ts', import.meta.url));
  const { url: upstreamUrl } = await firstMessage<{ url: string }>(upstream);
  const folder = mkdtempSync(join(tmpdir(), 'compaction-bench-serve-proxy-'));
  const port = await freePort();
  const { file, env } = eventLoopFileAndEnvironment();
  const proxy = spawn(
    process.execPath,
    [
      '--import',
      eventLoopMonitor,
      bin,
      'proxy',
      '--port',
      String(port),
      '--upstream',
      `openai=${upstreamUrl}`,
      '--context-window',
      String(contextWindow),
      '--store',
      'memory',
      '--compaction-threads',
      String(threads),
    ],
    { stdio: ['ignore', 'ignore', 'ignore'], cwd: folder, env },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    try {
      if ((await fetch(`${url}/compaction/status`)).ok) break;
    } catch {}
    if (attempt === 200) throw new Error(`compaction proxy did not start at ${url}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    healthPath: '/compaction/status',
    pid: proxy.pid!,
    eventLoopFile: file,
    stop: async () => {
      const exited = new Promise((resolve) => proxy.once('exit', resolve));
      proxy.kill('SIGTERM');
      await exited;
      upstream.send('stop');
      await new Promise((resolve) => upstream.once('exit', resolve));
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** The load process of each load, and its arguments after the server's address. */
const loads = {
  none: ['./load-process.ts', () => ['0', String(seconds), '0']],
  compact: ['./load-process.ts', () => [String(clients), String(seconds), String(requestedBytes)]],
  sessions: [
    './session-load-process.ts',
    () => [String(clients), String(seconds), String(roundBytes), String(sessionStartBytes)],
  ],
  proxy: ['./proxy-load-process.ts', () => [String(clients), String(seconds), String(proxyRequestedBytes)]],
} as const satisfies Record<HealthUnderLoad['load'], readonly [string, () => string[]]>;

interface LoadAnswer {
  statuses: Record<string, number>;
  bodyBytes?: number;
  compacted?: number;
}

async function measure(
  load: HealthUnderLoad['load'],
  mode: HealthUnderLoad['mode'],
): Promise<HealthUnderLoad> {
  // The default pool: one thread less than the cores, at least one (as `compaction serve` starts it).
  const threads = mode === 'inline' ? 0 : Math.max(1, availableParallelism() - 1);
  const server =
    load === 'proxy'
      ? await startProxy(threads)
      : await startServe(threads, load === 'sessions' ? contextWindow : undefined);
  const [script, args] = loads[load];
  process.kill(server.pid, 'SIGUSR2');
  const loader = fork(new URL(script, import.meta.url), [server.url, ...args()]);
  const loaded = firstMessage<LoadAnswer>(loader);
  let loading = true;
  loaded.finally(() => {
    loading = false;
  });
  const latencies: number[] = [];
  while (loading) {
    const started = performance.now();
    const response = await fetch(`${server.url}${server.healthPath}`);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${server.healthPath} answered ${response.status}`);
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, checkIntervalMilliseconds));
  }
  const answer = await loaded;
  if (load === 'compact') bodyBytes = answer.bodyBytes ?? bodyBytes;
  if (load === 'proxy') proxyBodyBytes = answer.bodyBytes ?? proxyBodyBytes;
  let compacted = answer.compacted;
  if (load === 'proxy') {
    // The proxy counts the compactions it ran in its status.
    const status = await fetch(`${server.url}${server.healthPath}`);
    compacted = ((await status.json()) as { compactions: number }).compactions;
  }
  await server.stop();
  const eventLoop = existsSync(server.eventLoopFile)
    ? (JSON.parse(readFileSync(server.eventLoopFile, 'utf8')) as HealthUnderLoad['eventLoop'])
    : undefined;
  latencies.sort((first, second) => first - second);
  return {
    load,
    mode,
    threads,
    checks: latencies.length,
    medianMilliseconds: percentile(latencies, 0.5),
    p99Milliseconds: percentile(latencies, 0.99),
    maxMilliseconds: latencies.at(-1)!,
    compactions: answer.statuses,
    ...(compacted === undefined ? {} : { compacted }),
    ...(eventLoop === undefined ? {} : { eventLoop }),
  };
}

const loadAverage = loadavg()[0]!;
const runs = [await measure('none', 'idle')];
for (const load of allLoads.filter((name) => chosenLoads.includes(name))) {
  runs.push(await measure(load, 'inline'), await measure(load, 'threads'));
}
const results: ServeResults = {
  node: process.version,
  cores: cpus().length,
  loadAverage,
  date: new Date().toISOString().slice(0, 10),
  clients,
  bodyBytes,
  sessions: { contextWindow, roundBytes, startBytes: sessionStartBytes },
  proxy: { contextWindow, bodyBytes: proxyBodyBytes },
  seconds,
  checkIntervalMilliseconds,
  runs,
};
rmSync(eventLoopFolder, { recursive: true, force: true });
if (everyLoad) {
  serveResultsFile.save(results);
  writeFileSync(
    readmePath,
    withGeneratedSection(readFileSync(readmePath, 'utf8'), serveSectionName, serveReadmeFigures(results)),
  );
  console.log(serveReadmeFigures(results));
} else {
  console.log(JSON.stringify(runs, null, 2));
}
