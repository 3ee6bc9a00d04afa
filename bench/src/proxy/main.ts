/**
 * `pnpm bench:proxy`: what `compaction proxy` adds to a request under the trigger on loopback, beside a plain
 * Node pass-through proxy, in one run: requests of about 2 KB and 200 KB sent directly to a loopback upstream,
 * through the pass-through and through the proxy, in turns, each request one short exchange longer than the
 * one before (an agent's next request). Saves bench/results/proxy.json and writes the proxy figures of
 * bench/README.md from it.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readmePath, withGeneratedSection } from '../readme/generated-section.js';
import { type Latency, type ProxyCase, type ProxyResults, proxyResultsFile } from './proxy-results.js';
import { proxyReadmeFigures, proxySectionName } from './readme-figures.js';

const requests = Number(process.env.PROXY_BENCH_REQUESTS ?? 300);
const warmUp = 30;

const bin = join(
  dirname(createRequire(import.meta.url).resolve('@compaction/cli/package.json')),
  'dist/bin.js',
);
if (!existsSync(bin)) {
  console.error(`${bin} is missing: build the CLI first (pnpm --filter @compaction/cli build)`);
  process.exit(1);
}

/** Starts a process of the bench and resolves with the address it sends. */
async function started(script: string, args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(new URL(script, import.meta.url), args);
  const url = await new Promise<string>((resolve) =>
    child.once('message', (message) => resolve((message as { url: string }).url)),
  );
  return { child, url };
}

const upstream = await started('./upstream-process.ts', []);
const upstreamUrl = upstream.url;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function ready(url: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      if ((await fetch(`${url}/compaction/status`)).ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`compaction proxy did not start at ${url}`);
}

const passThrough = await started('./pass-through-process.ts', [upstreamUrl]);
const passThroughUrl = passThrough.url;
// In a folder of its own: the proxy keeps its conversations in `.compaction/` there.
const folder = mkdtempSync(join(tmpdir(), 'compaction-bench-proxy-'));
const proxyPort = await freePort();
const proxy: ChildProcess = spawn(
  process.execPath,
  [
    bin,
    'proxy',
    '--port',
    String(proxyPort),
    '--upstream',
    `anthropic=${upstreamUrl}`,
    '--context-window',
    '200000',
  ],
  { stdio: ['ignore', 'ignore', 'inherit'], cwd: folder },
);
const proxyUrl = `http://127.0.0.1:${proxyPort}`;
await ready(proxyUrl);

/** A conversation of `exchanges` question-and-answer pairs of about 250 tokens each, and `extra` short ones. */
function body(exchanges: number, extra: number): string {
  const messages = Array.from({ length: exchanges }, (_, turn) => [
    { role: 'user', content: `Question ${turn}: ${'what does this function return? '.repeat(30)}` },
    { role: 'assistant', content: `Answer ${turn}: ${'it returns the rounded value. '.repeat(30)}` },
  ]).flat();
  for (let turn = 0; turn < extra; turn++) {
    messages.push(
      { role: 'user', content: `Next ${turn}: and then?` },
      { role: 'assistant', content: 'Then it rounds.' },
    );
  }
  messages.push({ role: 'user', content: 'Thanks, continue.' });
  return JSON.stringify({ model: 'claude-sonnet-5-5', max_tokens: 1024, messages });
}

async function timed(url: string, text: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': 'bench-key',
      'anthropic-version': '2023-06-01',
    },
    body: text,
  });
  await response.text();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return performance.now() - started;
}

const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
const latency = (samples: number[]): Latency => {
  const sorted = [...samples].sort((first, second) => first - second);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
};

const loadAverage = loadavg()[0]!;
const routes = { direct: upstreamUrl, passThrough: passThroughUrl, proxy: proxyUrl } as const;
type Route = keyof typeof routes;
const order: Route[] = ['direct', 'passThrough', 'proxy'];
const cases: ProxyCase[] = [];
for (const [label, exchanges] of [
  ['a one-message conversation', 0],
  ['a 100-exchange history, under the trigger', 100],
] as const) {
  const samples: Record<Route, number[]> = { direct: [], passThrough: [], proxy: [] };
  for (let index = 0; index < warmUp + requests; index++) {
    const text = body(exchanges, index);
    // In turns, the first route of each round rotating, so no route always runs on a cooler machine.
    for (let step = 0; step < order.length; step++) {
      const route = order[(index + step) % order.length]!;
      const time = await timed(routes[route], text);
      if (index >= warmUp) samples[route].push(time);
    }
  }
  cases.push({
    label,
    bytes: Buffer.byteLength(body(exchanges, 0)),
    requests,
    direct: latency(samples.direct),
    passThrough: latency(samples.passThrough),
    proxy: latency(samples.proxy),
  });
}

passThrough.child.send('stop');
upstream.child.send('stop');
proxy.kill('SIGTERM');
await new Promise((resolve) => proxy.once('exit', resolve));
rmSync(folder, { recursive: true, force: true });

const results: ProxyResults = {
  node: process.version,
  cores: cpus().length,
  loadAverage,
  date: new Date().toISOString().slice(0, 10),
  cases,
};
proxyResultsFile.save(results);
writeFileSync(
  readmePath,
  withGeneratedSection(readFileSync(readmePath, 'utf8'), proxySectionName, proxyReadmeFigures(results)),
);
console.log(proxyReadmeFigures(results));
