/** The CLI startup figures of bench/README.md, written from the saved results of `pnpm bench:cli`. */
import type { CliResults } from './cli-results.js';

export const cliSectionName = 'cli-figures';

const milliseconds = (value: number) => `${value.toFixed(1)} ms`;

export function cliReadmeFigures(results: CliResults): string {
  return [
    `Medians of ${results.runs} processes each, started in turns, Node ${results.node}, ${results.cores} cores, ` +
      `load average ${results.loadAverage.toFixed(1)} at the start, ${results.date}:`,
    '',
    '| process | start to exit |',
    '|---|--:|',
    `| \`node -e 0\` | ${milliseconds(results.nodeMilliseconds)} |`,
    `| \`compaction count ${results.input}\` | ${milliseconds(results.cliMilliseconds)} |`,
    `| the CLI's own overhead (difference) | ${milliseconds(results.cliMilliseconds - results.nodeMilliseconds)} |`,
    '',
    'The CLI groups digits itself rather than with ICU: in a fresh process the first ' +
      `\`toLocaleString('en-US')\` takes ${milliseconds(results.firstToLocaleStringMilliseconds)} and the first ` +
      `\`Intl.NumberFormat('en-US')\` ${milliseconds(results.firstNumberFormatMilliseconds)} (medians, same run).`,
  ].join('\n');
}
