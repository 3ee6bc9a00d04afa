/** The proxy latency figures of bench/README.md, written from the saved results of `pnpm bench:proxy`. */
import type { Latency, ProxyResults } from './proxy-results.js';

export const proxySectionName = 'proxy-figures';

const milliseconds = (value: number) => `${value.toFixed(2)} ms`;
const size = (bytes: number) => (bytes < 1024 ? `${bytes} bytes` : `${Math.round(bytes / 1024)} KB`);
const signed = (value: number) => `${value < 0 ? '−' : '+'}${milliseconds(Math.abs(value))}`;
const added = (route: Latency, direct: Latency) =>
  `${signed(route.p50 - direct.p50)} / ${signed(route.p99 - direct.p99)}`;

export function proxyReadmeFigures(results: ProxyResults): string {
  return [
    `Node ${results.node}, ${results.cores} cores, load average ${results.loadAverage.toFixed(1)} at the start, ` +
      `${results.date}. Each route took the same requests in turns; added = the route's time less the direct ` +
      "one's, at the median and at p99:",
    '',
    '| request | requests per route | direct p50 / p99 | plain Node pass-through, added | `compaction proxy`, added | the proxy beyond the pass-through, p50 |',
    '|---|--:|--:|--:|--:|--:|',
    ...results.cases.map(
      (entry) =>
        `| ${entry.label} (${size(entry.bytes)} at first) | ${entry.requests} | ` +
        `${milliseconds(entry.direct.p50)} / ${milliseconds(entry.direct.p99)} | ` +
        `${added(entry.passThrough, entry.direct)} | ${added(entry.proxy, entry.direct)} | ` +
        `${signed(entry.proxy.p50 - entry.passThrough.p50)} |`,
    ),
  ].join('\n');
}
