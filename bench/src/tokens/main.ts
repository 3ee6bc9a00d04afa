/**
 * `pnpm bench:tokens`: accuracy of the fast estimator and of `chars/4` against tiktoken's exact o200k_base
 * count on every generated content class and every real transcript, throughput of all four counters, and the
 * cost of re-checking a 1M-token conversation after one new message. Prints one Markdown report, writes it
 * to bench/results/tokens.md, and writes its figures into docs/counting.md (between two markers).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
// What follows the introduction is also written into docs/counting.md.
const figuresStart = lines.length;
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
  `| at least 60x faster than tiktoken | ${speedup.toFixed(0)}x (${rate(all.throughput.fast)} vs ${rate(all.throughput.tiktoken)} MB/s) | ${verdict(speedup >= 60)} |`,
  `| re-check after one message at least 100x faster than from scratch | ${anchoredSpeedup.toFixed(0)}x with usage recorded, ${memoizedSpeedup.toFixed(0)}x memoized only | ${verdict(anchoredSpeedup >= 100)} |`,
);

// Where chars/4 under-counts badly, on the generated classes.
const quarterMisses = results
  .slice(0, contentClasses.length)
  .map((result) => ({ name: result.name, error: result.quarter / result.exact - 1 }))
  .filter((result) => result.error < -0.1);
const quarterWorst = quarterMisses.map((result) => -result.error);
lines.push(
  '',
  (quarterMisses.length > 0
    ? `Where \`characters / 4\` under-counts by ${(Math.min(...quarterWorst) * 100).toFixed(0)} to ` +
      `${(Math.max(...quarterWorst) * 100).toFixed(0)}% (${quarterMisses.map((result) => result.name).join(', ')}) ` +
      'the fast estimator stays within the range above, and '
    : 'The fast estimator ') +
    `under-counts by at most ${(Math.max(0, -lowest) * 100).toFixed(1)}% on any class or transcript. Over all ` +
    `content it is ${speedup.toFixed(0)} times faster than tiktoken in the same run; single rows swing with the ` +
    'machine and the lengths of the texts (texts under 128 characters are scanned in JavaScript, longer ones by ' +
    'the WebAssembly scanner).',
);

const report = lines.join('\n') + '\n';
console.log(report);
const resultsFolder = resolve(import.meta.dirname, '../../results');
mkdirSync(resultsFolder, { recursive: true });
writeFileSync(resolve(resultsFolder, 'tokens.md'), report);
writeFiguresIntoDocs(lines.slice(figuresStart).join('\n'));

/** Replaces the figures between the two markers of docs/counting.md, so the page never drifts from a run. */
function writeFiguresIntoDocs(figures: string): void {
  const page = resolve(import.meta.dirname, '../../../docs/counting.md');
  const start = '<!-- Figures written by `pnpm bench:tokens`, not by hand. -->';
  const end = '<!-- End of the figures of `pnpm bench:tokens`. -->';
  const text = readFileSync(page, 'utf8');
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) {
    console.warn(`docs/counting.md has no markers for the figures; left as it is`);
    return;
  }
  writeFileSync(page, `${text.slice(0, from + start.length)}\n\n${figures}\n\n${text.slice(to)}`);
}
