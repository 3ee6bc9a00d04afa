/**
 * `pnpm bench:tokens`: accuracy of the fast estimator against tiktoken's exact o200k_base and cl100k_base
 * counts on every content class of the calibration corpus and of the held-back one, and on every real
 * transcript; throughput of the counters side by side; the cost of re-checking a 1M-token conversation after
 * one new message. Saves bench/results/tokens.json and writes from it bench/results/tokens.md, the figures of
 * docs/counting.md and those of bench/README.md (between their markers).
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { cl100kProfile, createTextEstimator, o200kProfile } from '@compaction/token-estimator';
import { readmePath, withGeneratedSection } from '../readme/generated-section.js';
import { resultsDirectory } from '../results-file.js';
import { compareAnthropicUsage } from './anthropic-usage.js';
import {
  calibrationSeed,
  contentClasses,
  generateCorpus,
  heldBackClasses,
  heldBackSeed,
  samplesPerClass,
} from './corpus.js';
import { type BenchCounter, createBenchCounters } from './counters.js';
import { createExactCounter } from './exact-counters.js';
import { measureIncrementalCheck } from './incremental-check.js';
import { interleavedSecondsPerCall, megabytes, type TimedWork } from './measure.js';
import { tokenReadmeFigures, tokenSectionName } from './readme-figures.js';
import {
  type LanguageResult,
  type RowCounts,
  type SpreadCounts,
  type TokenResults,
  tokenResultsFile,
} from './token-results.js';
import { loadTranscriptTexts } from './transcript-texts.js';
import { catalogTexts, fittedLanguages, heldBackLanguages } from './translation-catalogs.js';

const runs = 5;

const exactO200k = createExactCounter('o200k_base');
const exactCl100k = createExactCounter('cl100k_base');
const fastO200k = createTextEstimator({ profile: o200kProfile });
const fastCl100k = createTextEstimator({ profile: cl100kProfile });

function sum(texts: readonly string[], count: (text: string) => number): number {
  let total = 0;
  for (const text of texts) total += count(text);
  return total;
}

function countRow(texts: readonly string[]): RowCounts {
  return {
    o200k: { exact: sum(texts, exactO200k.count), fast: sum(texts, (text) => fastO200k.countText(text)) },
    cl100k: { exact: sum(texts, exactCl100k.count), fast: sum(texts, (text) => fastCl100k.countText(text)) },
    quarter: sum(texts, (text) => Math.ceil(text.length / 4)),
  };
}

function classTexts(seed: number): Map<string, string[]> {
  const texts = new Map<string, string[]>(contentClasses.map((name) => [name, []]));
  for (const sample of generateCorpus({ seed, samplesPerClass }))
    texts.get(sample.contentClass)!.push(sample.text);
  return texts;
}

const calibration = classTexts(calibrationSeed);
const heldBack = classTexts(heldBackSeed);
const transcripts = loadTranscriptTexts();
const classes = contentClasses.map((name) => ({
  name,
  calibration: countRow(calibration.get(name)!),
  heldBack: countRow(heldBack.get(name)!),
}));
const transcriptRows = transcripts.map((transcript) => ({
  name: transcript.name,
  counts: countRow(transcript.texts),
}));

/** Totals of texts and the lowest and highest error of one of them. */
function spreadRow(texts: readonly string[]): SpreadCounts {
  const lowest = { o200k: Number.POSITIVE_INFINITY, cl100k: Number.POSITIVE_INFINITY };
  const highest = { o200k: Number.NEGATIVE_INFINITY, cl100k: Number.NEGATIVE_INFINITY };
  for (const text of texts) {
    const row = countRow([text]);
    for (const tokenizer of ['o200k', 'cl100k'] as const) {
      const error = row[tokenizer].fast / row[tokenizer].exact - 1;
      lowest[tokenizer] = Math.min(lowest[tokenizer], error);
      highest[tokenizer] = Math.max(highest[tokenizer], error);
    }
  }
  return { counts: countRow(texts), lowest, highest };
}

const languageRows = (languages: readonly string[], inFit: boolean): LanguageResult[] => {
  const fitted = new Map(catalogTexts(languages, false).map((entry) => [entry.language, entry.texts]));
  const heldBackTexts = new Map(catalogTexts(languages, true).map((entry) => [entry.language, entry.texts]));
  return languages.flatMap((name) => {
    const fittedTexts = fitted.get(name);
    const otherTexts = heldBackTexts.get(name);
    // A held-back language has no catalog in the fit: all of its text is held back.
    const unseen = [...(inFit ? [] : (fittedTexts ?? [])), ...(otherTexts ?? [])];
    if (fittedTexts === undefined && unseen.length === 0) return [];
    return [
      {
        name,
        inFit,
        ...(inFit && fittedTexts ? { fittedCatalogs: spreadRow(fittedTexts) } : {}),
        ...(unseen.length > 0 ? { heldBackCatalogs: spreadRow(unseen) } : {}),
      },
    ];
  });
};
const languages = [...languageRows(fittedLanguages, true), ...languageRows(heldBackLanguages, false)];
exactO200k.free();
exactCl100k.free();

// Throughput: every held-back and transcript text, the four counters in turns.
const timedTexts = [
  ...[...heldBack.values()].flat(),
  ...transcripts.flatMap((transcript) => transcript.texts),
];
const { counters, free } = createBenchCounters();
const timed = (counter: BenchCounter, minimumSeconds: number): TimedWork => ({
  work: () => sum(timedTexts, counter.count),
  minimumSeconds,
});
const seconds = interleavedSecondsPerCall(
  {
    fast: timed(counters.fast, 0.2),
    quarter: timed(counters.quarter, 0.2),
    tiktoken: timed(counters.tiktoken, 0),
    gptTokenizer: timed(counters.gptTokenizer, 0),
  },
  runs,
);
free();
const size = megabytes(timedTexts);

const results: TokenResults = {
  date: new Date().toISOString().slice(0, 10),
  node: process.version,
  cores: cpus().length,
  samplesPerClass,
  calibrationSeed,
  heldBackSeed,
  classes,
  transcripts: transcriptRows,
  heldBackClasses: [...heldBackClasses],
  languages,
  anthropicUsage: compareAnthropicUsage(),
  megabytes: size,
  runs,
  throughput: {
    fast: size / seconds.fast,
    quarter: size / seconds.quarter,
    tiktoken: size / seconds.tiktoken,
    gptTokenizer: size / seconds.gptTokenizer,
  },
  incremental: measureIncrementalCheck(),
};
tokenResultsFile.save(results);

const figures = tokenReadmeFigures(results);
const report = `# Token counting benchmark\n\nGenerated with \`pnpm bench:tokens\`.\n\n${figures}\n`;
console.log(report);
writeFileSync(resolve(resultsDirectory, 'tokens.md'), report);
writeFileSync(readmePath, withGeneratedSection(readFileSync(readmePath, 'utf8'), tokenSectionName, figures));
writeFiguresIntoDocs(figures);

/** Replaces the figures between the two markers of docs/counting.md, so the page never drifts from a run. */
function writeFiguresIntoDocs(text: string): void {
  const page = resolve(import.meta.dirname, '../../../docs/counting.md');
  const start = '<!-- Figures written by `pnpm bench:tokens`, not by hand. -->';
  const end = '<!-- End of the figures of `pnpm bench:tokens`. -->';
  const content = readFileSync(page, 'utf8');
  const from = content.indexOf(start);
  const to = content.indexOf(end);
  if (from < 0 || to < from) {
    console.warn('docs/counting.md has no markers for the figures; left as it is');
    return;
  }
  writeFileSync(page, `${content.slice(0, from + start.length)}\n\n${text}\n\n${content.slice(to)}`);
}
