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
  /** The fast estimator with the tokenizer's shipped profile. */
  fast: number;
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

/** Totals of a set of texts, and the lowest and highest relative error of one text among them. */
export interface SpreadCounts {
  counts: RowCounts;
  lowest: { o200k: number; cl100k: number };
  highest: { o200k: number; cl100k: number };
}

/**
 * One language of the translation catalogs (bench/src/tokens/translation-catalogs.ts): from the catalogs the fit
 * sees (for a fitted language) and from those it never sees.
 */
export interface LanguageResult {
  name: string;
  /** Whether the language is in the fit at all (through its fitted catalogs). */
  inFit: boolean;
  fittedCatalogs?: SpreadCounts;
  heldBackCatalogs?: SpreadCounts;
}

/** Megabytes of UTF-8 per second of each counter over the whole held-back corpus and the transcripts. */
export interface Throughput {
  fast: number;
  quarter: number;
  tiktoken: number;
  gptTokenizer: number;
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
  /** Classes the fit never sees, in either corpus. */
  heldBackClasses: string[];
  /** Natural text in many languages: empty where the machine has no translation catalogs. */
  languages: LanguageResult[];
  /** The Anthropic profile against Anthropic's recorded usage in the Claude Code sessions. */
  anthropicUsage: AnthropicUsageRow[];
  megabytes: number;
  /** Runs each throughput is the median of. */
  runs: number;
  throughput: Throughput;
  incremental: IncrementalCheckResult;
}

export const tokenResultsFile = resultsFile<TokenResults>('tokens.json');

/** Relative error of an estimate, `+4.2%` style. */
export function percent(estimate: number, exact: number): string {
  const error = (estimate / exact - 1) * 100;
  return `${error >= 0 ? '+' : ''}${error.toFixed(1)}%`;
}

/** Relative errors of the fast estimator on every class of both corpora and every transcript, for one tokenizer. */
export function fastErrors(results: TokenResults, tokenizer: 'o200k' | 'cl100k'): number[] {
  const error = (counts: RowCounts) => counts[tokenizer].fast / counts[tokenizer].exact - 1;
  return [
    ...results.classes.flatMap((result) => [error(result.calibration), error(result.heldBack)]),
    ...results.transcripts.map((transcript) => error(transcript.counts)),
  ];
}
