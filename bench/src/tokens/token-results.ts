/**
 * The saved results of the token counting benchmark: `bench/results/tokens.json`. The Markdown report, the
 * figures of docs/counting.md and those of bench/README.md are written from it, so none drifts from a run.
 */
import { resultsFile } from '../results-file.js';
import type { AnthropicUsageRow } from './anthropic-usage.js';
import type { IncrementalCheckResult } from './incremental-check.js';

/** Exact and estimated tokens of a set of texts for one tokenizer. */
export interface Counts {
  exact: number;
  /** The fast estimator with the tokenizer's shipped profile, as it is by default: through the vocabulary. */
  fast: number;
  /** The same with `vocabulary: false`: every text counted by the fitted features. */
  features: number;
}

/** Totals of one set of texts for both tokenizers, and `characters / 4` against o200k. */
export interface RowCounts {
  o200k: Counts;
  cl100k: Counts;
  quarter: number;
}

/** One content class, counted on the calibration corpus and on the held-back one. */
export interface ClassResult {
  name: string;
  calibration: RowCounts;
  heldBack: RowCounts;
}

/** The guarantee the figures are held to: on any text of this many characters or more... */
export const guaranteedLength = 1000;
/** ...never more than this fraction under the exact count... */
export const underLimit = 0.05;
/** ...and on natural text never more than this fraction over. */
export const overLimit = 0.15;

/** Totals of a set of texts, and the lowest and highest relative error of one text among them. */
export interface SpreadCounts {
  counts: RowCounts;
  lowest: { o200k: number; cl100k: number };
  highest: { o200k: number; cl100k: number };
}

/** A {@link SpreadCounts} of single texts held to the guarantee, with how many there are and how many fail it. */
export interface TextSpread extends SpreadCounts {
  texts: number;
  /** Texts more than {@link underLimit} under the exact count. */
  under: { o200k: number; cl100k: number };
}

/** Which languages of the translation catalogs the fit sees: `fitted` (some of its catalogs) or `heldBack` (none). */
export type LanguageGroup = 'fitted' | 'heldBack';

/**
 * One language of the translation catalogs (bench/src/tokens/translation-catalogs.ts): from the catalogs the fit
 * sees (for a fitted language) and from those it never sees.
 */
export interface LanguageResult {
  name: string;
  group: LanguageGroup;
  fittedCatalogs?: SpreadCounts;
  heldBackCatalogs?: SpreadCounts;
}

/** Megabytes of UTF-8 per second of each counter over one set of texts. */
export interface Throughput {
  /** The fast estimator as it is by default: every text counted through the vocabulary. */
  fast: number;
  /** The fast estimator with `vocabulary: false`: every text counted by its features. */
  features: number;
  quarter: number;
  tiktoken: number;
  gptTokenizer: number;
}

/** The counters timed over one set of texts. */
export interface ThroughputSet {
  texts: number;
  megabytes: number;
  /** Megabytes per second, the median of the runs. */
  rates: Throughput;
}

export interface TokenResults {
  date: string;
  node: string;
  cores: number;
  samplesPerClass: number;
  calibrationSeed: number;
  heldBackSeed: number;
  classes: ClassResult[];
  /** Real transcripts, which the profiles are fitted on too. */
  transcripts: { name: string; counts: RowCounts }[];
  /**
   * The transcripts' texts of {@link guaranteedLength} characters or more, one by one: all of them, and per source
   * (the folder of the shared transcripts: `claude-code`, `tau-bench`...). None without transcripts.
   */
  transcriptTexts?: { all: TextSpread; sources: { source: string; spread: TextSpread }[] };
  /** Classes the fit never sees, in either corpus. */
  heldBackClasses: string[];
  /**
   * Every text above (classes, transcripts, catalogs) counted by default (through the vocabulary), per tokenizer: how many,
   * and on how many the count differed from tiktoken's (times the profile's safety factor, 1).
   */
  vocabularyCounts: { o200k: VocabularyTally; cl100k: VocabularyTally };
  /** Natural text in many languages: empty where the machine has no translation catalogs. */
  languages: LanguageResult[];
  /** The Anthropic profile against Anthropic's recorded usage in the Claude Code sessions. */
  anthropicUsage: AnthropicUsageRow[];
  /** Runs each throughput is the median of. */
  runs: number;
  throughput: {
    /** Every text of the shared transcripts: what the speed goal is measured on. */
    transcripts: ThroughputSet;
    /** The held-back generated classes and the held-back catalog texts of every language. */
    heldBack: ThroughputSet;
  };
  incremental: IncrementalCheckResult;
}

/** Texts counted by default (through the vocabulary), and those whose count was not tiktoken's. */
export interface VocabularyTally {
  texts: number;
  differing: number;
  /** The largest relative difference of one text's count from tiktoken's, 0 when none differs. */
  largestDifference: number;
}

export const tokenResultsFile = resultsFile<TokenResults>('tokens.json');

/** Relative error of an estimate, `+4.2%` style. */
export function percent(estimate: number, exact: number): string {
  const error = (estimate / exact - 1) * 100;
  return `${error >= 0 ? '+' : ''}${error.toFixed(1)}%`;
}

/** Relative error of the fitted features (`vocabulary: false`) on a set of texts, for one tokenizer. */
export function featuresError(counts: RowCounts, tokenizer: 'o200k' | 'cl100k'): number {
  return counts[tokenizer].features / counts[tokenizer].exact - 1;
}

/** Relative errors of the fitted features on every class of both corpora and every transcript, for one tokenizer. */
export function featuresErrors(results: TokenResults, tokenizer: 'o200k' | 'cl100k'): number[] {
  return [
    ...results.classes.flatMap((result) => [
      featuresError(result.calibration, tokenizer),
      featuresError(result.heldBack, tokenizer),
    ]),
    ...results.transcripts.map((transcript) => featuresError(transcript.counts, tokenizer)),
  ];
}
