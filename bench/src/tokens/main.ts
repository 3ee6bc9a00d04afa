/**
 * `pnpm bench:tokens`: accuracy of the fast estimator (whether by default, through the vocabulary, it gives
 * tiktoken's counts, and the errors of its fitted features, `vocabulary: false`) against tiktoken's exact o200k_base and cl100k_base counts on every content class of the calibration corpus and of the held-back one, on every real transcript
 * and on each of its texts long enough for the guarantee; throughput of the counters side by side, on the
 * transcripts' texts and on the held-back corpus; the cost of re-checking a 1M-token conversation after one new
 * message. Saves bench/results/tokens.json and writes from it bench/results/tokens.md, the figures of
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
  featuresError,
  guaranteedLength,
  type LanguageGroup,
  type LanguageResult,
  type RowCounts,
  type SpreadCounts,
  type TextSpread,
  type ThroughputSet,
  type TokenResults,
  tokenResultsFile,
  underLimit,
  type VocabularyTally,
} from './token-results.js';
import { loadTranscriptTexts } from './transcript-texts.js';
import { catalogTexts, fittedLanguages, heldBackLanguages } from './translation-catalogs.js';

const runs = 5;
const tokenizers = ['o200k', 'cl100k'] as const;

const exactO200k = createExactCounter('o200k_base');
const exactCl100k = createExactCounter('cl100k_base');
// The fitted features (`vocabulary: false`), and the default, which the guarantee is made for: every text counted
// through the tokenizer's vocabulary.
const featuresO200k = createTextEstimator({ profile: o200kProfile, vocabulary: false });
const featuresCl100k = createTextEstimator({ profile: cl100kProfile, vocabulary: false });
const fastO200k = createTextEstimator({ profile: o200kProfile });
const fastCl100k = createTextEstimator({ profile: cl100kProfile });
const vocabularyCounts: Record<'o200k' | 'cl100k', VocabularyTally> = {
  o200k: { texts: 0, differing: 0, largestDifference: 0 },
  cl100k: { texts: 0, differing: 0, largestDifference: 0 },
};

/** Tallies a count made by default against the exact one (the shipped OpenAI profiles' factor is 1). */
function tallyVocabulary(tokenizer: 'o200k' | 'cl100k', exact: number, counted: number): number {
  const tally = vocabularyCounts[tokenizer];
  tally.texts++;
  if (counted !== exact) {
    tally.differing++;
    tally.largestDifference = Math.max(tally.largestDifference, Math.abs(counted / Math.max(1, exact) - 1));
  }
  return counted;
}

function sum(texts: readonly string[], count: (text: string) => number): number {
  let total = 0;
  for (const text of texts) total += count(text);
  return total;
}

function countText(text: string): RowCounts {
  const o200k = exactO200k.count(text);
  const cl100k = exactCl100k.count(text);
  return {
    o200k: {
      exact: o200k,
      fast: tallyVocabulary('o200k', o200k, fastO200k.countText(text)),
      features: featuresO200k.countText(text),
    },
    cl100k: {
      exact: cl100k,
      fast: tallyVocabulary('cl100k', cl100k, fastCl100k.countText(text)),
      features: featuresCl100k.countText(text),
    },
    quarter: Math.ceil(text.length / 4),
  };
}

function addCounts(rows: readonly RowCounts[]): RowCounts {
  const total = {
    o200k: { exact: 0, fast: 0, features: 0 },
    cl100k: { exact: 0, fast: 0, features: 0 },
    quarter: 0,
  };
  for (const row of rows) {
    for (const tokenizer of tokenizers) {
      total[tokenizer].exact += row[tokenizer].exact;
      total[tokenizer].fast += row[tokenizer].fast;
      total[tokenizer].features += row[tokenizer].features;
    }
    total.quarter += row.quarter;
  }
  return total;
}

const countRow = (texts: readonly string[]) => addCounts(texts.map(countText));

/** Totals of texts counted one by one, and the lowest and highest error of one of them. */
function spreadOf(rows: readonly RowCounts[]): SpreadCounts {
  const errors = (tokenizer: 'o200k' | 'cl100k') => rows.map((row) => featuresError(row, tokenizer));
  return {
    counts: addCounts(rows),
    lowest: { o200k: Math.min(...errors('o200k')), cl100k: Math.min(...errors('cl100k')) },
    highest: { o200k: Math.max(...errors('o200k')), cl100k: Math.max(...errors('cl100k')) },
  };
}

/** {@link spreadOf}, with how many texts there are and how many are more than the limit under. */
function textSpread(rows: readonly RowCounts[]): TextSpread {
  const under = (tokenizer: 'o200k' | 'cl100k') =>
    rows.filter((row) => featuresError(row, tokenizer) < -underLimit).length;
  return { ...spreadOf(rows), texts: rows.length, under: { o200k: under('o200k'), cl100k: under('cl100k') } };
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

// Each transcript text is counted once: its counts make the transcript's total and, when the text is long
// enough for the guarantee, a row of its source's per-text spread.
const transcriptRows: TokenResults['transcripts'] = [];
const longTextRows = new Map<string, RowCounts[]>();
for (const transcript of transcripts) {
  const rows = transcript.texts.map(countText);
  transcriptRows.push({ name: transcript.name, counts: addCounts(rows) });
  const source = transcript.name.split('/')[0]!;
  const long = rows.filter((_, index) => transcript.texts[index]!.length >= guaranteedLength);
  if (long.length > 0) longTextRows.set(source, [...(longTextRows.get(source) ?? []), ...long]);
}
const transcriptTexts =
  longTextRows.size === 0
    ? undefined
    : {
        all: textSpread([...longTextRows.values()].flat()),
        sources: [...longTextRows].map(([source, rows]) => ({ source, spread: textSpread(rows) })),
      };

/** Rows of one group of languages, and the texts of theirs the fit never sees. */
function languageRows(languages: readonly string[], group: LanguageGroup) {
  const fitted = new Map(catalogTexts(languages, false).map((entry) => [entry.language, entry.texts]));
  const heldBackTexts = new Map(catalogTexts(languages, true).map((entry) => [entry.language, entry.texts]));
  const inFit = group === 'fitted';
  return languages.flatMap((name) => {
    const fittedTexts = fitted.get(name);
    const otherTexts = heldBackTexts.get(name);
    // A language outside the fit has no catalog in it: all of its text is held back.
    const unseen = [...(inFit ? [] : (fittedTexts ?? [])), ...(otherTexts ?? [])];
    if (fittedTexts === undefined && unseen.length === 0) return [];
    const result: LanguageResult = {
      name,
      group,
      ...(inFit && fittedTexts ? { fittedCatalogs: spreadOf(fittedTexts.map(countText)) } : {}),
      ...(unseen.length > 0 ? { heldBackCatalogs: spreadOf(unseen.map(countText)) } : {}),
    };
    return [{ result, unseen }];
  });
}
const languageEntries = [
  ...languageRows(fittedLanguages, 'fitted'),
  ...languageRows(heldBackLanguages, 'heldBack'),
];
const languages = languageEntries.map((entry) => entry.result);
exactO200k.free();
exactCl100k.free();

/** The five counters over `texts`, in turns within each run; megabytes per second, medians of the runs. */
function timeCounters(texts: readonly string[]): ThroughputSet {
  const { counters, free } = createBenchCounters();
  const timed = (counter: BenchCounter, minimumSeconds: number): TimedWork => ({
    work: () => sum(texts, counter.count),
    minimumSeconds,
  });
  const seconds = interleavedSecondsPerCall(
    {
      // A new estimator for each pass: one remembers the texts it counted through the vocabulary, and every
      // pass here is over the same texts.
      fast: {
        work: () => {
          const estimator = createTextEstimator({ profile: o200kProfile });
          return sum(texts, (text) => estimator.countText(text));
        },
        minimumSeconds: 0.2,
      },
      features: timed(counters.features, 0.2),
      quarter: timed(counters.quarter, 0.2),
      tiktoken: timed(counters.tiktoken, 0),
      gptTokenizer: timed(counters.gptTokenizer, 0),
    },
    runs,
  );
  free();
  const size = megabytes(texts);
  return {
    texts: texts.length,
    megabytes: size,
    rates: {
      fast: size / seconds.fast,
      features: size / seconds.features,
      quarter: size / seconds.quarter,
      tiktoken: size / seconds.tiktoken,
      gptTokenizer: size / seconds.gptTokenizer,
    },
  };
}

// Throughput: the transcripts' texts, which the speed goal is set on, then the held-back corpus beside them.
const throughput = {
  transcripts: timeCounters(transcripts.flatMap((transcript) => transcript.texts)),
  heldBack: timeCounters([
    ...[...heldBack.values()].flat(),
    ...languageEntries.flatMap((entry) => entry.unseen),
  ]),
};

const results: TokenResults = {
  date: new Date().toISOString().slice(0, 10),
  node: process.version,
  cores: cpus().length,
  samplesPerClass,
  calibrationSeed,
  heldBackSeed,
  classes,
  transcripts: transcriptRows,
  ...(transcriptTexts ? { transcriptTexts } : {}),
  heldBackClasses: [...heldBackClasses],
  vocabularyCounts,
  languages,
  anthropicUsage: compareAnthropicUsage(),
  runs,
  throughput,
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
