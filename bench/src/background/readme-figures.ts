/** The background compaction figures of bench/README.md, written from the saved results of `pnpm bench:background`. */
import type { BackgroundResults } from './background-results.js';

export const backgroundSectionName = 'background-figures';

const milliseconds = (value: number) => `${Math.round(value)} ms`;

export function backgroundReadmeFigures(results: BackgroundResults): string {
  const transcripts = results.transcripts
    .map(
      (transcript) =>
        `${transcript.name} (${transcript.modelCalls} model calls, window ${transcript.contextWindow})`,
    )
    .join(', ');
  // All transcripts first, then each one, its two modes side by side (the sort is stable).
  const rank = (transcript: string) => (transcript === 'all' ? '' : transcript);
  const ordered = [...results.modes].sort((left, right) =>
    rank(left.transcript).localeCompare(rank(right.transcript)),
  );
  return [
    `A summarizer that answers after ${results.summarizerMilliseconds} ms, ${results.modelCallMilliseconds} ms ` +
      `per simulated model call, trigger ${results.trigger}, target ${results.target}, \`prepareAt\` ` +
      `${results.prepareAt}; ${transcripts}; both modes side by side in one run, Node ${results.node}, ` +
      `${results.cores} cores, ${results.date}:`,
    '',
    '| transcript | mode | compactions | `prepare` at the trigger, p50 | p99 | under the trigger, p99 | summarizer calls | background used / dropped | saved |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|',
    ...ordered.map(
      (mode) =>
        `| ${mode.transcript} | ${mode.mode} | ${mode.compactions} | ${milliseconds(mode.p50Milliseconds)} | ` +
        `${milliseconds(mode.p99Milliseconds)} | ${milliseconds(mode.underTriggerP99Milliseconds)} | ` +
        `${mode.summarizerCalls} | ${mode.used} / ${mode.discarded} | ${milliseconds(mode.savedMilliseconds)} |`,
    ),
  ].join('\n');
}
