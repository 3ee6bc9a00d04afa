/** The token counting figures of bench/README.md and docs/counting.md, written from the saved results of `pnpm bench:tokens`. */
import {
  fastErrors,
  type LanguageResult,
  percent,
  type RowCounts,
  type SpreadCounts,
  type TokenResults,
} from './token-results.js';

export const tokenSectionName = 'token-figures';

/** The guarantee the figures are held to: never more than this fraction under the exact count... */
const underLimit = 0.05;
/** ...and on natural text never more than this fraction over. */
const overLimit = 0.15;
const minimumSpeedup = 60;

type Tokenizer = 'o200k' | 'cl100k';

const rate = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');
const signed = (error: number) => percent(error + 1, 1);
/** Whether an error is outside the guarantee: under by more than the limit, or over by more on natural text. */
const outside = (error: number, natural: boolean) => error < -underLimit || (natural && error > overLimit);
const isNatural = (name: string) => name.startsWith('prose-');
/** An error cell, in bold when it is outside the guarantee. */
const cell = (counts: RowCounts, tokenizer: Tokenizer, natural: boolean) => {
  const text = percent(counts[tokenizer].fast, counts[tokenizer].exact);
  return outside(counts[tokenizer].fast / counts[tokenizer].exact - 1, natural) ? `**${text}**` : text;
};
/** A language cell: the total, then the lowest and highest error of one text, in bold when outside. */
const spreadCell = (spread: SpreadCounts | undefined, tokenizer: Tokenizer) => {
  if (spread === undefined) return '';
  const range = `${signed(spread.lowest[tokenizer])} … ${signed(spread.highest[tokenizer])}`;
  const bad = outside(spread.lowest[tokenizer], true) || outside(spread.highest[tokenizer], true);
  return `${percent(spread.counts[tokenizer].fast, spread.counts[tokenizer].exact)} (${bad ? `**${range}**` : range})`;
};

/** The lowest and highest per-text errors of the languages, on their fitted or their held-back catalogs. */
function languageExtremes(languages: readonly LanguageResult[], tokenizer: Tokenizer, heldBack: boolean) {
  const spreads = languages
    .map((language) => (heldBack ? language.heldBackCatalogs : language.fittedCatalogs))
    .filter((spread): spread is SpreadCounts => spread !== undefined);
  return {
    lowest: Math.min(...spreads.map((spread) => spread.lowest[tokenizer])),
    highest: Math.max(...spreads.map((spread) => spread.highest[tokenizer])),
    texts: spreads.length,
  };
}

/** The accuracy table of the generated classes and the transcripts, with the paragraph that reads it. */
function classLines(results: TokenResults): string[] {
  const neverFitted = new Set(results.heldBackClasses);
  return [
    `Fast estimator against exact \`tiktoken\` counts, ${results.samplesPerClass} generated samples per class in ` +
      `each corpus: calibration (seed ${results.calibrationSeed}, the one the shipped profiles are fitted on) and ` +
      `held back (seed ${results.heldBackSeed}, never seen by the fit); classes marked "never fitted" are in ` +
      `neither side of the fit. Node ${results.node}, ${results.cores} cores, ${results.date}. In bold: more than ` +
      `${underLimit * 100}% under, or on natural text (prose) more than ${overLimit * 100}% over.`,
    '',
    '| content | o200k calibration | o200k held back | cl100k calibration | cl100k held back | chars/4 held back (o200k) |',
    '|---|--:|--:|--:|--:|--:|',
    ...results.classes.map((result) => {
      const natural = isNatural(result.name);
      const name = neverFitted.has(result.name) ? `${result.name} (never fitted)` : result.name;
      return (
        `| ${name} | ${cell(result.calibration, 'o200k', natural)} | ${cell(result.heldBack, 'o200k', natural)} | ` +
        `${cell(result.calibration, 'cl100k', natural)} | ${cell(result.heldBack, 'cl100k', natural)} | ` +
        `${percent(result.heldBack.quarter, result.heldBack.o200k.exact)} |`
      );
    }),
    ...results.transcripts.map(
      (transcript) =>
        `| transcript: ${transcript.name} (fitted on) | ${cell(transcript.counts, 'o200k', false)} |  | ` +
        `${cell(transcript.counts, 'cl100k', false)} |  | ${percent(transcript.counts.quarter, transcript.counts.o200k.exact)} |`,
    ),
  ];
}

/** The table of the translation catalogs, none when the machine has none. */
function languageLines(results: TokenResults): string[] {
  if (results.languages.length === 0) return [];
  return [
    '',
    "Natural text written by people: the translated messages of the machine's gettext catalogs, in texts of " +
      '3,000 characters. The split is by source: the fit sees some catalogs of the fitted languages, never the ' +
      'others (coreutils, git, glib, gtk, systemd, apt, psql, tar), and never any catalog of the held-back ' +
      'languages. Each cell: the error of the total, then the lowest and highest error of one text.',
    '',
    '| language | o200k fitted catalogs | o200k held back | cl100k fitted catalogs | cl100k held back |',
    '|---|--:|--:|--:|--:|',
    ...results.languages.map(
      (language) =>
        `| ${language.name}${language.inFit ? '' : ' (held back)'} | ` +
        `${spreadCell(language.fittedCatalogs, 'o200k')} | ${spreadCell(language.heldBackCatalogs, 'o200k')} | ` +
        `${spreadCell(language.fittedCatalogs, 'cl100k')} | ${spreadCell(language.heldBackCatalogs, 'cl100k')} |`,
    ),
  ];
}

/** The table of the Anthropic profile against Claude Code's recorded usage, none without sessions. */
function anthropicUsageLines(results: TokenResults): string[] {
  if (results.anthropicUsage.length === 0) return [];
  return [
    '',
    "The Anthropic profile against Anthropic's own counts: the input tokens Claude Code recorded for each " +
      'request of the shared sessions. Each request also carries the system prompt and the tool definitions, ' +
      'which the session files do not hold, so what is compared is how much the input grew from one request to ' +
      "the next against the estimate of the messages added between them (with core's framing per message and " +
      'block).',
    '',
    '| session | requests compared | recorded growth | estimated | error |',
    '|---|--:|--:|--:|--:|',
    ...results.anthropicUsage.map(
      (row) =>
        `| ${row.name} | ${row.steps} | ${row.recorded.toLocaleString('en-US')} | ` +
        `${row.estimated.toLocaleString('en-US')} | ${percent(row.estimated, row.recorded)} |`,
    ),
  ];
}

/** The rows of the targets table for one tokenizer: the under-count, prose and catalog guarantees. */
function accuracyTargetRows(results: TokenResults, tokenizer: Tokenizer): string {
  const errors = fastErrors(results, tokenizer);
  const lowest = Math.min(...errors);
  const under = errors.filter((error) => error < -underLimit).length;
  const prose = results.classes
    .filter((result) => isNatural(result.name))
    .flatMap((result) => [result.calibration, result.heldBack])
    .map((counts) => counts[tokenizer].fast / counts[tokenizer].exact - 1);
  const rows = [
    `| ${tokenizer}: never more than ${underLimit * 100}% under on any class or transcript | ` +
      `worst ${signed(lowest)} (${under} of ${errors.length} outside) | ${verdict(under === 0)} |`,
    `| ${tokenizer}: generated prose at most ${overLimit * 100}% over | highest ${signed(Math.max(...prose))} | ` +
      `${verdict(Math.max(...prose) <= overLimit)} |`,
  ];
  for (const heldBack of [false, true]) {
    const extremes = languageExtremes(results.languages, tokenizer, heldBack);
    if (extremes.texts === 0) continue;
    const side = heldBack ? 'held-back' : 'fitted';
    rows.push(
      `| ${tokenizer}: natural text of ${side} catalogs, each text within -${underLimit * 100}% and +${overLimit * 100}% | ` +
        `${signed(extremes.lowest)} to ${signed(extremes.highest)} | ` +
        `${verdict(extremes.lowest >= -underLimit && extremes.highest <= overLimit)} |`,
    );
  }
  return rows.join('\n');
}

/** The throughput table, the cost of a re-check, and the table of every target with its verdict. */
function speedAndTargetLines(results: TokenResults): string[] {
  const speedup = results.throughput.fast / results.throughput.tiktoken;
  const incremental = results.incremental;
  const anchoredSpeedup = incremental.scratchSeconds / incremental.anchoredSeconds;
  const memoizedSpeedup = incremental.scratchSeconds / incremental.memoizedSeconds;
  const counters = [
    ['fast estimator (o200k profile)', results.throughput.fast],
    ['`characters / 4`', results.throughput.quarter],
    ['tiktoken o200k_base', results.throughput.tiktoken],
    ['gpt-tokenizer o200k_base', results.throughput.gptTokenizer],
  ] as const;
  return [
    '',
    `Throughput over the held-back corpus and the transcripts (${results.megabytes.toFixed(1)} MB of UTF-8), ` +
      `median of ${results.runs} runs, the counters timed in turns within each run:`,
    '',
    '| counter | MB/s | vs tiktoken |',
    '|---|--:|--:|',
    ...counters.map(
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
    ...(['o200k', 'cl100k'] as const).map((tokenizer) => accuracyTargetRows(results, tokenizer)),
    `| at least ${minimumSpeedup}× faster than tiktoken | ${speedup.toFixed(0)}× | ${verdict(speedup >= minimumSpeedup)} |`,
    `| re-check after one message at least 100× faster than from scratch | ${anchoredSpeedup.toFixed(0)}× with usage recorded | ${verdict(anchoredSpeedup >= 100)} |`,
  ];
}

export function tokenReadmeFigures(results: TokenResults): string {
  return [
    ...classLines(results),
    ...languageLines(results),
    ...anthropicUsageLines(results),
    ...speedAndTargetLines(results),
  ].join('\n');
}
