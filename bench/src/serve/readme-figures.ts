/** The serve figures of bench/README.md, written from the saved results of `pnpm bench:serve`. */
import type { HealthUnderLoad, ServeResults } from './serve-results.js';

export const serveSectionName = 'serve-figures';

const milliseconds = (value: number) => `${value.toFixed(1)} ms`;
const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

export function serveReadmeFigures(results: ServeResults): string {
  const answered = (compactions: Record<string, number>) =>
    Object.entries(compactions)
      .map(([status, count]) => `${count} × ${status}`)
      .join(', ') || 'none';
  return [
    `${results.clients} clients posting a ${megabytes(results.bodyBytes)} \`/v1/compact\` in a loop for ` +
      `${results.seconds} s against each server, \`/v1/health\` asked one at a time every ` +
      `${results.checkIntervalMilliseconds} ms meanwhile, Node ${results.node}, ${results.cores} cores, ` +
      `load average ${results.loadAverage.toFixed(1)} at the start, ${results.date}:`,
    '',
    '| compactions | health checks | median | p99 | max | compactions answered |',
    '|---|--:|--:|--:|--:|---|',
    ...results.runs.map(
      (run) =>
        `| ${describeRun(run)} ` +
        `| ${run.checks} | ${milliseconds(run.medianMilliseconds)} | ${milliseconds(run.p99Milliseconds)} ` +
        `| ${milliseconds(run.maxMilliseconds)} | ${answered(run.compactions)} |`,
    ),
  ].join('\n');
}

function describeRun(run: HealthUnderLoad): string {
  if (run.mode === 'idle') return 'none (no load, for comparison)';
  if (run.mode === 'inline') return 'on the event loop (`compactionThreads: 0`)';
  return `on ${run.threads} thread${run.threads === 1 ? '' : 's'} (default)`;
}
