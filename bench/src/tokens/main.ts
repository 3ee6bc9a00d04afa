/**
 * `pnpm bench:tokens`: accuracy of the fast estimator and of `chars/4` against tiktoken's exact o200k_base
 * count on every generated content class and every real transcript, throughput of all four counters, and the
 * cost of re-checking a 1M-token conversation after one new message. Prints one Markdown report and writes it
 * to bench/results/tokens.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { contentClasses, generateCorpus } from './corpus.js';
import { type BenchCounter, createBenchCounters } from './counters.js';
import { measureIncrementalCheck } from './incremental-check.js';
import { interleavedSecondsPerCall, megabytes, type TimedWork } from './measure.js';
import { loadTranscriptTexts } from './transcript-texts.js';

/** The benchmark corpus uses another seed than the one the shipped profiles were fitted on. */
const benchmarkSeed = 2;
const runs = 5;

interface Row {
  name: string;
  texts: string[];
}

interface RowResult {
  name: string;
  megabytes: number;
  exact: number;
  fast: number;
  quarter: number;
  throughput: Record<'fast' | 'quarter' | 'tiktoken' | 'gptTokenizer', number>;
}

const { counters, free } = createBenchCounters();

function countAll(counter: BenchCounter, texts: readonly string[]): number {
  let total = 0;
  for (const text of texts) total += counter.count(text);
  return total;
}

function measureRow(row: Row): RowResult {
  const size = megabytes(row.texts);
  const timed = (counter: BenchCounter, minimumSeconds: number): TimedWork => ({
    work: () => countAll(counter, row.texts),
    minimumSeconds,
  });
  const seconds = interleavedSecondsPerCall(
    {
      fast: timed(counters.fast, 0.02),
      quarter: timed(counters.quarter, 0.02),
      tiktoken: timed(counters.tiktoken, 0),
      gptTokenizer: timed(counters.gptTokenizer, 0),
    },
    runs,
  );
  return {
    name: row.name,
    megabytes: size,
    exact: countAll(counters.tiktoken, row.texts),
    fast: countAll(counters.fast, row.texts),
    quarter: countAll(counters.quarter, row.texts),
    throughput: {
      fast: size / seconds.fast,
      quarter: size / seconds.quarter,
      tiktoken: size / seconds.tiktoken,
      gptTokenizer: size / seconds.gptTokenizer,
    },
  };
}

const percent = (estimate: number, exact: number) => {
  const error = (estimate / exact - 1) * 100;
  return `${error >= 0 ? '+' : ''}${error.toFixed(1)}%`;
};
const rate = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));

const corpus = generateCorpus({ seed: benchmarkSeed, samplesPerClass: 40 });
const classRows: Row[] = contentClasses.map((contentClass) => ({
  name: contentClass,
  texts: corpus.filter((sample) => sample.contentClass === contentClass).map((sample) => sample.text),
}));
const transcripts = loadTranscriptTexts();
const transcriptRows: Row[] = transcripts.map((transcript) => ({
  name: `transcript: ${transcript.name}`,
  texts: transcript.texts,
}));
const allRow: Row = {
  name: '**all of the above**',
  texts: [...classRows, ...transcriptRows].flatMap((row) => row.texts),
};

const results = [...classRows, ...transcriptRows, allRow].map(measureRow);
free();
const incremental = measureIncrementalCheck();

const lines: string[] = [];
lines.push('# Token counting benchmark', '');
lines.push(
  `Generated with \`pnpm bench:tokens\` on ${new Date().toISOString().slice(0, 10)} (Node ${process.version}). ` +
    `Exact counts: \`tiktoken\` o200k_base over each text (special-token strings as plain text). ` +
    `Content classes: ${corpus.length / contentClasses.length} generated samples each (seed ${benchmarkSeed}; the shipped ` +
    `profile was fitted on seed 1). Transcripts: the text of every message of each real transcript` +
    (transcripts.length === 0 ? ' (none found: transcripts folder absent).' : '.') +
    ` Throughput: MB of UTF-8 per second, median of ${runs} runs, the four counters timed in turns within each run.`,
  '',
);
lines.push(
  '| content | MB | exact o200k | fast | fast error | chars/4 | chars/4 error | fast MB/s | chars/4 MB/s | tiktoken MB/s | gpt-tokenizer MB/s |',
  '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
);
for (const result of results) {
  lines.push(
    `| ${result.name} | ${result.megabytes.toFixed(3)} | ${result.exact} | ${result.fast} | ${percent(result.fast, result.exact)} | ` +
      `${result.quarter} | ${percent(result.quarter, result.exact)} | ${rate(result.throughput.fast)} | ` +
      `${rate(result.throughput.quarter)} | ${rate(result.throughput.tiktoken)} | ${rate(result.throughput.gptTokenizer)} |`,
  );
}

const checked = results.slice(0, -1);
const errors = checked.map((result) => result.fast / result.exact - 1);
const lowest = Math.min(...errors);
const highest = Math.max(...errors);
const all = results.at(-1)!;
const speedup = all.throughput.fast / all.throughput.tiktoken;
const memoizedSpeedup = incremental.scratchSeconds / incremental.memoizedSeconds;
const anchoredSpeedup = incremental.scratchSeconds / incremental.anchoredSeconds;
const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');

lines.push('', '## Re-checking a long conversation', '');
lines.push(
  `\`generateCodingHistory()\`: ${incremental.messages} messages, ${incremental.estimatedTokens.toLocaleString('en-US')} ` +
    'estimated tokens. Median of 7 runs.',
  '',
  '| check | time | vs from scratch |',
  '|---|--:|--:|',
  `| from scratch (new \`TokenCounter\`) | ${(incremental.scratchSeconds * 1000).toFixed(2)} ms | 1x |`,
  `| one message appended, memoized counter | ${(incremental.memoizedSeconds * 1e6).toFixed(1)} µs | ${memoizedSpeedup.toFixed(0)}x faster |`,
  `| one message appended, usage recorded (\`recordUsage\`) | ${(incremental.anchoredSeconds * 1e6).toFixed(1)} µs | ${anchoredSpeedup.toFixed(0)}x faster |`,
);

lines.push('', '## Targets', '');
lines.push(
  '| target | measured | status |',
  '|---|---|---|',
  `| fast estimator within ±10% of exact o200k on every class and transcript | ${percent(lowest + 1, 1)} to ${percent(highest + 1, 1)} | ${verdict(lowest >= -0.1 && highest <= 0.1)} |`,
  `| never under-counts by more than 10% | worst ${percent(lowest + 1, 1)} | ${verdict(lowest >= -0.1)} |`,
  `| at least 50x faster than tiktoken | ${speedup.toFixed(0)}x (${rate(all.throughput.fast)} vs ${rate(all.throughput.tiktoken)} MB/s) | ${verdict(speedup >= 50)} |`,
  `| re-check after one message at least 100x faster than from scratch | ${anchoredSpeedup.toFixed(0)}x with usage recorded, ${memoizedSpeedup.toFixed(0)}x memoized only | ${verdict(anchoredSpeedup >= 100)} |`,
);

const report = lines.join('\n') + '\n';
console.log(report);
const resultsFolder = resolve(import.meta.dirname, '../../results');
mkdirSync(resultsFolder, { recursive: true });
writeFileSync(resolve(resultsFolder, 'tokens.md'), report);
