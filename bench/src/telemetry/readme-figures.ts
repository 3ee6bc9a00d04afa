/** The telemetry overhead figures of bench/README.md, written from the saved results of `pnpm bench:telemetry`. */
import type { TelemetryResults } from './telemetry-results.js';

export const telemetrySectionName = 'telemetry-figures';

const milliseconds = (value: number) =>
  value < 1 ? `${(value * 1000).toFixed(1)} µs` : `${value.toFixed(2)} ms`;

export function telemetryReadmeFigures(results: TelemetryResults): string {
  return [
    `Medians of ${results.samples} samples per variant, taken in turns, \`@opentelemetry/api\` ${results.api} ` +
      `with no provider registered, Node ${results.node}, ${results.cores} cores, load average ` +
      `${results.loadAverage.toFixed(1)} at the start, ${results.date}:`,
    '',
    '| workload (one call) | without observers | with `compactionTelemetry()` | ratio (median of rounds) |',
    '|---|--:|--:|--:|',
    ...results.workloads.map(
      (workload) =>
        `| ${workload.name} | ${milliseconds(workload.plainMilliseconds)} | ` +
        `${milliseconds(workload.telemetryMilliseconds)} | ` +
        `${workload.ratio.toFixed(2)} |`,
    ),
  ].join('\n');
}
