/** The serve figures of bench/README.md, written from the saved results of `pnpm bench:serve`. */
import type { HealthUnderLoad, ServeResults } from './serve-results.js';

export const serveSectionName = 'serve-figures';

const milliseconds = (value: number) => `${value.toFixed(1)} ms`;
const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;
const tokens = (count: number) => count.toLocaleString('en-US');

export function serveReadmeFigures(results: ServeResults): string {
  const answered = (run: HealthUnderLoad) =>
    (Object.entries(run.compactions)
      .map(([status, count]) => `${count} × ${status}`)
      .join(', ') || 'none') + (run.compacted === undefined ? '' : `; ${run.compacted} compacted`);
  const loads = [
    `a ${megabytes(results.bodyBytes)} \`/v1/compact\` posted in a loop`,
    ...(results.sessions === undefined
      ? []
      : [
          `a session each, created from a ${megabytes(results.sessions.startBytes)} conversation and grown by one ` +
            `tool round of ${megabytes(results.sessions.roundBytes)} per append, compacted as it passes its ` +
            `trigger (context window ${tokens(results.sessions.contextWindow)})`,
        ]),
    ...(results.proxy === undefined
      ? []
      : [
          `a ${megabytes(results.proxy.bodyBytes)} Chat Completions conversation posted through \`compaction proxy\` ` +
            `in a loop, each under a new conversation name, so each is compacted (context window ` +
            `${tokens(results.proxy.contextWindow)})`,
        ]),
  ];
  return [
    `${results.clients} clients for ${results.seconds} s against each server, with ${loads.join('; or ')}; ` +
      `\`/v1/health\` (the proxy's \`/compaction/status\`) asked one at a time every ` +
      `${results.checkIntervalMilliseconds} ms meanwhile, Node ${results.node}, ${results.cores} cores, ` +
      `load average ${results.loadAverage.toFixed(1)} at the start, ${results.date}:`,
    '',
    '| load | compactions | health checks | median | p99 | max | event loop busy | its delay p99 / max | requests answered |',
    '|---|---|--:|--:|--:|--:|--:|--:|---|',
    ...results.runs.map(
      (run) =>
        `| ${describeLoad(run)} | ${describeMode(run)} ` +
        `| ${run.checks} | ${milliseconds(run.medianMilliseconds)} | ${milliseconds(run.p99Milliseconds)} ` +
        `| ${milliseconds(run.maxMilliseconds)} | ${describeEventLoop(run)} | ${answered(run)} |`,
    ),
  ].join('\n');
}

/** The server's event loop during the load: its busy share, its delay; a dash in results saved without. */
function describeEventLoop(run: HealthUnderLoad): string {
  const { eventLoop } = run;
  if (eventLoop === undefined) return '— | —';
  return (
    `${(eventLoop.utilization * 100).toFixed(0)}% | ` +
    `${eventLoop.delayP99Milliseconds.toFixed(0)} / ${eventLoop.delayMaxMilliseconds.toFixed(0)} ms`
  );
}

function describeLoad(run: HealthUnderLoad): string {
  // Results saved before the loads were named were all `/v1/compact`.
  const load = run.load ?? (run.mode === 'idle' ? 'none' : 'compact');
  if (load === 'none') return 'none (for comparison)';
  if (load === 'compact') return '`POST /v1/compact`';
  if (load === 'sessions') return 'sessions';
  return '`compaction proxy`';
}

function describeMode(run: HealthUnderLoad): string {
  if (run.mode === 'idle') return '—';
  if (run.mode === 'inline') return 'on the event loop (`0` threads)';
  return `on ${run.threads} thread${run.threads === 1 ? '' : 's'} (default)`;
}
