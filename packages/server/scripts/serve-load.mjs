// A bounded load run of `compaction serve` on loopback: creates sessions (each with a short coding
// conversation) at a fixed concurrency, lets them all expire, and prints what it measured as JSON: requests
// per second and latency of the creations, and the server's heap before, with every session alive, and after
// expiry (each after full garbage collections). With several rounds, a heap after expiry that stays level
// from round to round shows that expired sessions leave nothing behind.
//
//   node scripts/serve-load.mjs [--sessions 10000] [--concurrency 32] [--idle 2 (seconds)] [--rounds 1]
//                               [--store memory|sqlite]
//
// With --store sqlite the sessions are kept in a SQLite file in a temporary folder, as `compaction serve` keeps
// them by default.
// Needs the package built (pnpm --filter @compaction/server build).
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateCodingHistory } from '@compaction/testing';

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '32' },
    idle: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '1' },
    store: { type: 'string', default: 'memory' },
  },
});
if (!['memory', 'sqlite'].includes(values.store)) throw new Error('--store takes memory or sqlite');
const sessions = Number(values.sessions);
const concurrency = Number(values.concurrency);
const idleMs = Math.round(Number.parseFloat(values.idle) * 1000);
const roundCount = Number(values.rounds);
if (![sessions, concurrency, idleMs, roundCount].every((value) => Number.isInteger(value) && value > 0)) {
  throw new Error('--sessions, --concurrency and --rounds take positive integers, --idle seconds');
}

const server = fork(
  fileURLToPath(new URL('serve-load-server.mjs', import.meta.url)),
  [JSON.stringify({ sessions, idleMs, store: values.store })],
  {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  },
);
const ask = async (question) => {
  server.send(question);
  const [answer] = await once(server, 'message');
  return answer;
};
const [{ url }] = await once(server, 'message');
const health = async () => (await (await fetch(`${url}/v1/health`)).json()).sessions;

const messages = generateCodingHistory({ messages: 6, seed: 1 });
const body = JSON.stringify({ conversation: messages });
const before = (await ask('memory')).memory;

/** Creates the sessions at the set concurrency, then waits until every one has expired. */
async function round() {
  const latencies = [];
  const statuses = new Map();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < sessions) {
        next++;
        const sent = performance.now();
        const response = await fetch(`${url}/v1/sessions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        await response.arrayBuffer();
        latencies.push(performance.now() - sent);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }
    }),
  );
  const elapsedMs = performance.now() - started;
  const alive = await health();
  const peak = (await ask('memory')).memory;

  // Every session is idle now; each sweep (a quarter of the idle time) removes the expired ones.
  const expiryStarted = performance.now();
  const deadline = expiryStarted + idleMs * 2 + 30_000;
  let remaining = await health();
  while (remaining > 0 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(50, idleMs / 4)));
    remaining = await health();
  }
  const after = (await ask('memory')).memory;
  latencies.sort((left, right) => left - right);
  const percentile = (share) =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))];
  return {
    statuses: Object.fromEntries(statuses),
    sessionsAlive: alive,
    sessionsAfterExpiry: remaining,
    expiredAfterMs: Math.round(performance.now() - expiryStarted),
    requestsPerSecond: Math.round((sessions / elapsedMs) * 1000),
    latencyMs: { p50: tenth(percentile(0.5)), p99: tenth(percentile(0.99)) },
    heapMB: { peak: megabytes(peak.heapUsed), afterExpiry: megabytes(after.heapUsed) },
    rssMB: { peak: megabytes(peak.rss), afterExpiry: megabytes(after.rss) },
  };
}

const tenth = (value) => Math.round(value * 10) / 10;
const megabytes = (bytes) => tenth(bytes / 1024 / 1024);
const rounds = [];
for (let index = 0; index < roundCount; index++) rounds.push(await round());
server.send('stop');
await once(server, 'exit');

console.log(
  JSON.stringify(
    {
      sessions,
      concurrency,
      idleMs,
      store: values.store,
      heapMBBefore: megabytes(before.heapUsed),
      rssMBBefore: megabytes(before.rss),
      rounds,
    },
    null,
    2,
  ),
);
