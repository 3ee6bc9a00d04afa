// Measures the ways of running the SQLite store side by side and writes the table into the README, between
// the `measured` markers. Run: pnpm --filter @compaction/store-sqlite bench
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import {
  callsPerSecond,
  eventLoopWhileLocked,
  idleEventLoop,
  openAndClose,
  recoveryFromKilledWriter,
} from './measurements.js';
import { variants } from './variants.js';

const loadBefore = loadavg()[0]!;
const rates = await callsPerSecond(variants, 7);
const lifecycles: Awaited<ReturnType<typeof openAndClose>>[] = [];
for (const variant of variants) lifecycles.push(await openAndClose(variant));
const idle: Awaited<ReturnType<typeof idleEventLoop>>[] = [];
const locked: Awaited<ReturnType<typeof eventLoopWhileLocked>>[] = [];
const recoveries: Awaited<ReturnType<typeof recoveryFromKilledWriter>>[] = [];
for (const variant of variants) {
  console.error(`${variant.name}: waiting for a held lock`);
  idle.push(await idleEventLoop());
  locked.push(await eventLoopWhileLocked(variant));
  console.error(`${variant.name}: recovering from a killed writer`);
  recoveries.push(await recoveryFromKilledWriter(variant));
}
const loadAfter = loadavg()[0]!;

const milliseconds = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const perSecond = (value: number) => `${Math.round(value).toLocaleString('en-US')}/s`;
const rows: [string, (index: number) => string][] = [
  ['appends, one process (sequential)', (index) => perSecond(rates[index]!.appendsPerSecond)],
  ['`list` of 5 records, one process (sequential)', (index) => perSecond(rates[index]!.listsPerSecond)],
  [
    'open a store until its first call is answered / close it (SQLite loaded per store only in the worker)',
    (index) => `${milliseconds(lifecycles[index]!.openMs)} / ${milliseconds(lifecycles[index]!.closeMs)}`,
  ],
  [
    'event-loop delay while another process holds the lock for 3 s, worst of 3 waits: p99 / max',
    (index) => `${milliseconds(locked[index]!.delayP99Ms)} / ${milliseconds(locked[index]!.delayMaxMs)}`,
  ],
  [
    '... event-loop utilization (share of the time busy) meanwhile, worst of 3',
    (index) => percent(locked[index]!.utilization),
  ],
  [
    '... for comparison, the same process idle for 9 s just before: delay p99 / max, utilization',
    (index) =>
      `${milliseconds(idle[index]!.delayP99Ms)} / ${milliseconds(idle[index]!.delayMaxMs)}, ${percent(idle[index]!.utilization)}`,
  ],
  [
    'the waiting call done, after the lock is released (slowest of 3)',
    (index) => milliseconds(locked[index]!.doneAfterReleaseMs),
  ],
  ["the waiting process's calls that failed meanwhile (3 waits)", (index) => String(locked[index]!.failures)],
  [
    'a writer killed mid-transaction (SIGKILL): next call through after',
    (index) => milliseconds(recoveries[index]!.recoveryMs),
  ],
  ['... calls that failed ("database is locked") until then', (index) => String(recoveries[index]!.failures)],
  [
    '... database afterwards: integrity check, rows of the killed transaction, rows before it',
    (index) =>
      `${recoveries[index]!.integrity}, ${recoveries[index]!.halfDoneRows} of 200, ${recoveries[index]!.keptRows} of 1`,
  ],
];
const table = [
  `| | ${variants.map((variant) => variant.name).join(' | ')} |`,
  `|---|${variants.map(() => '---').join('|')}|`,
  ...rows.map(([label, cell]) => `| ${label} | ${variants.map((_, index) => cell(index)).join(' | ')} |`),
].join('\n');
const conditions =
  `Node ${process.versions.node}, ${availableParallelism()} cores, load average ${loadBefore.toFixed(1)} ` +
  `at the start and ${loadAfter.toFixed(1)} at the end (the machine is shared: absolute rates move with it).`;
const section = `${table}\n\n${conditions}`;
console.log(section);

const readmeUrl = new URL('../README.md', import.meta.url);
const readme = readFileSync(readmeUrl, 'utf8');
const start = '<!-- measured:start -->\n';
const end = '\n<!-- measured:end -->';
const from = readme.indexOf(start);
const to = readme.indexOf(end);
if (from === -1 || to === -1) throw new Error('README.md has no measured markers');
writeFileSync(readmeUrl, readme.slice(0, from + start.length) + section + readme.slice(to));
