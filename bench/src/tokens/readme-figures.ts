/** The token counting figures of bench/README.md and docs/counting.md, written from the saved results of `pnpm bench:tokens`. */
import { fastErrors, percent, type RowCounts, type TokenResults } from './token-results.js';

export const tokenSectionName = 'token-figures';

/** The goal the figures are held to: within this fraction of exact on every class, and never further under. */
const tolerance = 0.05;
const minimumSpeedup = 60;

const rate = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');
/** An error cell, in bold when it is outside the goal. */
const cell = (counts: RowCounts, tokenizer: 'o200k' | 'cl100k') => {
  const text = percent(counts[tokenizer].fast, counts[tokenizer].exact);
  return Math.abs(counts[tokenizer].fast / counts[tokenizer].exact - 1) > tolerance ? `**${text}**` : text;
};

export function tokenReadmeFigures(results: TokenResults): string {
  const lines = [
    `Fast estimator against exact \`tiktoken\` counts, ${results.samplesPerClass} generated samples per class in ` +
      `each corpus: calibration (seed ${results.calibrationSeed}, the one the shipped profiles are fitted on) and ` +
      `held back (seed ${results.heldBackSeed}, never seen by the fit). Node ${results.node}, ${results.cores} cores, ` +
      `${results.date}. In bold: outside ±${tolerance * 100}%.`,
    '',
    '| content | o200k calibration | o200k held back | cl100k calibration | cl100k held back | chars/4 held back (o200k) |',
    '|---|--:|--:|--:|--:|--:|',
    ...results.classes.map(
      (result) =>
        `| ${result.name} | ${cell(result.calibration, 'o200k')} | ${cell(result.heldBack, 'o200k')} | ` +
        `${cell(result.calibration, 'cl100k')} | ${cell(result.heldBack, 'cl100k')} | ` +
        `${percent(result.heldBack.quarter, result.heldBack.o200k.exact)} |`,
    ),
    ...results.transcripts.map(
      (transcript) =>
        `| transcript: ${transcript.name} (fitted on) | ${cell(transcript.counts, 'o200k')} |  | ` +
        `${cell(transcript.counts, 'cl100k')} |  | ${percent(transcript.counts.quarter, transcript.counts.o200k.exact)} |`,
    ),
  ];
  const speedup = results.throughput.fast / results.throughput.tiktoken;
  const targets = (['o200k', 'cl100k'] as const).map((tokenizer) => {
    const errors = fastErrors(results, tokenizer);
    const lowest = Math.min(...errors);
    const highest = Math.max(...errors);
    const outside = errors.filter((error) => Math.abs(error) > tolerance).length;
    return (
      `| ${tokenizer}: within ±${tolerance * 100}% of exact on every class and transcript | ` +
      `${percent(lowest + 1, 1)} to ${percent(highest + 1, 1)} (${outside} of ${errors.length} outside) | ` +
      `${verdict(outside === 0)} |\n` +
      `| ${tokenizer}: never under-counts by more than ${tolerance * 100}% | worst ${percent(lowest + 1, 1)} | ${verdict(lowest >= -tolerance)} |`
    );
  });
  const incremental = results.incremental;
  const anchoredSpeedup = incremental.scratchSeconds / incremental.anchoredSeconds;
  const memoizedSpeedup = incremental.scratchSeconds / incremental.memoizedSeconds;
  lines.push(
    '',
    `Throughput over the held-back corpus and the transcripts (${results.megabytes.toFixed(1)} MB of UTF-8), ` +
      `median of ${results.runs} runs, the counters timed in turns within each run:`,
    '',
    '| counter | MB/s | vs tiktoken |',
    '|---|--:|--:|',
    ...(
      [
        ['fast estimator (o200k profile)', results.throughput.fast],
        ['`characters / 4`', results.throughput.quarter],
        ['tiktoken o200k_base', results.throughput.tiktoken],
        ['gpt-tokenizer o200k_base', results.throughput.gptTokenizer],
      ] as const
    ).map(
      ([name, value]) =>
        `| ${name} | ${rate(value)} | ${(value / results.throughput.tiktoken).toFixed(1)}× |`,
    ),
    '',
    `Re-checking \`generateCodingHistory()\` (${incremental.messages} messages, ` +
      `${incremental.estimatedTokens.toLocaleString('en-US')} estimated tokens) after one new message: ` +
      `${(incremental.scratchSeconds * 1000).toFixed(2)} ms from scratch, ` +
      `${(incremental.memoizedSeconds * 1e6).toFixed(1)} µs memoized (${memoizedSpeedup.toFixed(0)}× faster), ` +
      `${(incremental.anchoredSeconds * 1e6).toFixed(1)} µs with usage recorded (${anchoredSpeedup.toFixed(0)}× faster), medians of 7 runs.`,
    '',
    '| target | measured | status |',
    '|---|---|---|',
    ...targets,
    `| at least ${minimumSpeedup}× faster than tiktoken | ${speedup.toFixed(0)}× | ${verdict(speedup >= minimumSpeedup)} |`,
    `| re-check after one message at least 100× faster than from scratch | ${anchoredSpeedup.toFixed(0)}× with usage recorded | ${verdict(anchoredSpeedup >= 100)} |`,
  );
  return lines.join('\n');
}
