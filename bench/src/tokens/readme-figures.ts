/** The token counting figures of bench/README.md and docs/counting.md, written from the saved results of `pnpm bench:tokens`. */
import {
  featuresError,
  featuresErrors,
  guaranteedLength,
  type LanguageGroup,
  type LanguageResult,
  overLimit,
  percent,
  type RowCounts,
  type SpreadCounts,
  type TextSpread,
  type ThroughputSet,
  type TokenResults,
  underLimit,
  type VocabularyTally,
} from './token-results.js';

export const tokenSectionName = 'token-figures';

/** The speed goal, on the shared transcripts' texts. */
const minimumSpeedup = 50;

type Tokenizer = 'o200k' | 'cl100k';

const rate = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');
const signed = (error: number) => percent(error + 1, 1);
/** Whether an error is outside the guarantee: under by more than the limit, or over by more on natural text. */
const outside = (error: number, natural: boolean) => error < -underLimit || (natural && error > overLimit);
const isNatural = (name: string) => name.startsWith('prose-');
/** An error cell, in bold when it is outside the guarantee. */
const cell = (counts: RowCounts, tokenizer: Tokenizer, natural: boolean) => {
  const text = percent(counts[tokenizer].features, counts[tokenizer].exact);
  return outside(featuresError(counts, tokenizer), natural) ? `**${text}**` : text;
};
/** A language cell: the total, then the lowest and highest error of one text, in bold when outside. */
const spreadCell = (spread: SpreadCounts | undefined, tokenizer: Tokenizer) => {
  if (spread === undefined) return '';
  const range = `${signed(spread.lowest[tokenizer])} … ${signed(spread.highest[tokenizer])}`;
  const bad = outside(spread.lowest[tokenizer], true) || outside(spread.highest[tokenizer], true);
  return `${percent(spread.counts[tokenizer].features, spread.counts[tokenizer].exact)} (${bad ? `**${range}**` : range})`;
};

/** Catalog texts a target row holds to the guarantee: some groups of languages, one side of their catalogs. */
interface CatalogSet {
  label: string;
  groups: readonly LanguageGroup[];
  heldBack: boolean;
}

const catalogSets: readonly CatalogSet[] = [
  { label: 'fitted catalogs', groups: ['fitted'], heldBack: false },
  { label: 'held-back catalogs', groups: ['fitted', 'heldBack'], heldBack: true },
];

const groupLabels: Record<LanguageGroup, string> = {
  fitted: '',
  heldBack: ' (held back)',
};

/** The lowest and highest per-text errors of a set of catalog texts. */
function languageExtremes(languages: readonly LanguageResult[], tokenizer: Tokenizer, set: CatalogSet) {
  const spreads = languages
    .filter((language) => set.groups.includes(language.group))
    .map((language) => (set.heldBack ? language.heldBackCatalogs : language.fittedCatalogs))
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
    "The fast estimator counts every text through the tokenizer's vocabulary by default (the last paragraph " +
      'of this section); the tables before it are of its fitted features (`vocabulary: false`, and any profile ' +
      'without vocabularies) against exact `tiktoken` counts, ' +
      `${results.samplesPerClass} generated samples per class in ` +
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
    '',
    `By default, every text is counted through the tokenizer's vocabulary: ` +
      `${vocabularyTallyText(results.vocabularyCounts.o200k)} in o200k, and ` +
      `${vocabularyTallyText(results.vocabularyCounts.cl100k)} in cl100k (every text of the classes, the ` +
      'transcripts and the catalogs).',
  ];
}

/** How many texts were counted by default, and how many of them differ from tiktoken's count. */
function vocabularyTallyText(tally: VocabularyTally): string {
  const texts = tally.texts.toLocaleString('en-US');
  if (tally.differing === 0) return `all ${texts} counts equal tiktoken's`;
  return (
    `${tally.differing.toLocaleString('en-US')} of ${texts} counts differ from tiktoken's ` +
    `(by up to ${(tally.largestDifference * 100).toFixed(1)}%)`
  );
}

/** The transcripts' long texts one by one, per source and all together; none without transcripts. */
function transcriptTextLines(results: TokenResults): string[] {
  const texts = results.transcriptTexts;
  if (texts === undefined) return [];
  const range = (spread: TextSpread, tokenizer: Tokenizer) => {
    const text = `${signed(spread.lowest[tokenizer])} … ${signed(spread.highest[tokenizer])}`;
    return spread.lowest[tokenizer] < -underLimit ? `**${text}**` : text;
  };
  const row = (name: string, spread: TextSpread) =>
    `| ${name} | ${spread.texts} | ${range(spread, 'o200k')} | ${spread.under.o200k} | ` +
    `${range(spread, 'cl100k')} | ${spread.under.cl100k} |`;
  return [
    '',
    `The features text by text, not only a transcript's total: the transcripts' texts of ` +
      `${guaranteedLength.toLocaleString('en-US')} characters or more, one by one, with the lowest and highest ` +
      `error of one text (in bold when it is more than ${underLimit * 100}% under) and how many are more than ` +
      `${underLimit * 100}% under.`,
    '',
    `| transcripts | texts | o200k lowest … highest | o200k under by more than ${underLimit * 100}% | ` +
      `cl100k lowest … highest | cl100k under by more than ${underLimit * 100}% |`,
    '|---|--:|--:|--:|--:|--:|',
    ...texts.sources.map(({ source, spread }) => row(source, spread)),
    row('all', texts.all),
  ];
}

/** The table of the translation catalogs, none when the machine has none. */
function languageLines(results: TokenResults): string[] {
  if (results.languages.length === 0) return [];
  return [
    '',
    "Natural text written by people, counted by the features: the translated messages of the machine's gettext catalogs, in texts of " +
      '3,000 characters. The split is by source: the fit sees some catalogs of the fitted languages, never the ' +
      'others (coreutils, git, glib, gtk, systemd, apt, psql, tar), and never any catalog of the held-back ' +
      'languages. Each cell: the error of the total, then the lowest and highest error of one text.',
    '',
    '| language | o200k fitted catalogs | o200k held back | cl100k fitted catalogs | cl100k held back |',
    '|---|--:|--:|--:|--:|',
    ...results.languages.map(
      (language) =>
        `| ${language.name}${groupLabels[language.group]} | ` +
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
  const errors = featuresErrors(results, tokenizer);
  const texts = results.transcriptTexts?.all;
  const lowest = Math.min(...errors, ...(texts ? [texts.lowest[tokenizer]] : []));
  const under = errors.filter((error) => error < -underLimit).length + (texts?.under[tokenizer] ?? 0);
  const measured = errors.length + (texts?.texts ?? 0);
  const prose = results.classes
    .filter((result) => isNatural(result.name))
    .flatMap((result) => [result.calibration, result.heldBack])
    .map((counts) => featuresError(counts, tokenizer));
  const subjects = texts
    ? `any class, transcript or transcript text of ${guaranteedLength.toLocaleString('en-US')} characters or more`
    : 'any class or transcript';
  const vocabulary = results.vocabularyCounts[tokenizer];
  const rows = [
    `| ${tokenizer}, by default (through the vocabulary): every count tiktoken's, so never under | ` +
      `${vocabularyTallyText(vocabulary)} | ${verdict(vocabulary.differing === 0)} |`,
    `| ${tokenizer}, \`vocabulary: false\` (the features): never more than ${underLimit * 100}% under on ${subjects} | ` +
      `worst ${signed(lowest)} (${under} of ${measured} outside) | ${verdict(under === 0)} |`,
    `| ${tokenizer}, \`vocabulary: false\`: generated prose at most ${overLimit * 100}% over | highest ${signed(Math.max(...prose))} | ` +
      `${verdict(Math.max(...prose) <= overLimit)} |`,
  ];
  for (const set of catalogSets) {
    const extremes = languageExtremes(results.languages, tokenizer, set);
    if (extremes.texts === 0) continue;
    rows.push(
      `| ${tokenizer}, \`vocabulary: false\`: natural text of ${set.label}, each text within -${underLimit * 100}% and +${overLimit * 100}% | ` +
        `${signed(extremes.lowest)} to ${signed(extremes.highest)} | ` +
        `${verdict(extremes.lowest >= -underLimit && extremes.highest <= overLimit)} |`,
    );
  }
  return rows.join('\n');
}

/** The throughput table: the transcripts' texts, where the speed goal is set, and the held-back corpus beside them. */
function throughputLines(results: TokenResults): string[] {
  const { transcripts, heldBack } = results.throughput;
  const size = (set: ThroughputSet) =>
    `${set.texts.toLocaleString('en-US')} texts, ${set.megabytes.toFixed(1)} MB`;
  const counters = [
    ['fast estimator (o200k profile, by default: through the vocabulary)', 'fast'],
    ['fast estimator (o200k profile, `vocabulary: false`: the features)', 'features'],
    ['`characters / 4`', 'quarter'],
    ['tiktoken o200k_base', 'tiktoken'],
    ['gpt-tokenizer o200k_base', 'gptTokenizer'],
  ] as const;
  const cells = (set: ThroughputSet, key: (typeof counters)[number][1]) =>
    `${rate(set.rates[key])} | ${(set.rates[key] / set.rates.tiktoken).toFixed(1)}×`;
  return [
    '',
    `Throughput, megabytes of UTF-8 per second: on the texts of the shared transcripts (${size(transcripts)}), ` +
      `which the speed goal is set on, and beside them, with no goal, on the held-back corpus (${size(heldBack)}: ` +
      'the generated classes and the held-back catalog texts of every language). The vocabulary keeps the ' +
      'counts of recent pieces, as it does in a long-running process, so its runs after the first find most ' +
      'of them. Medians of ' +
      `${results.runs} runs, the five counters timed in turns within each run.`,
    '',
    '| counter | transcripts MB/s | vs tiktoken | held-back corpus MB/s | vs tiktoken |',
    '|---|--:|--:|--:|--:|',
    ...counters.map(([name, key]) => `| ${name} | ${cells(transcripts, key)} | ${cells(heldBack, key)} |`),
  ];
}

/** The cost of a re-check, and the table of every target with its verdict. */
function targetLines(results: TokenResults): string[] {
  const rates = results.throughput.transcripts.rates;
  const speedup = rates.fast / rates.tiktoken;
  const featuresSpeedup = rates.features / rates.tiktoken;
  const incremental = results.incremental;
  const anchoredSpeedup = incremental.scratchSeconds / incremental.anchoredSeconds;
  const memoizedSpeedup = incremental.scratchSeconds / incremental.memoizedSeconds;
  return [
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
    `| at least ${minimumSpeedup}× faster than tiktoken on the shared transcripts, by default | ${speedup.toFixed(0)}× | ` +
      `${verdict(speedup >= minimumSpeedup)} |`,
    `| the same with \`vocabulary: false\` | ${featuresSpeedup.toFixed(0)}× | ` +
      `${verdict(featuresSpeedup >= minimumSpeedup)} |`,
    `| re-check after one message at least 100× faster than from scratch | ${anchoredSpeedup.toFixed(0)}× with usage recorded | ${verdict(anchoredSpeedup >= 100)} |`,
  ];
}

export function tokenReadmeFigures(results: TokenResults): string {
  return [
    ...classLines(results),
    ...transcriptTextLines(results),
    ...languageLines(results),
    ...anthropicUsageLines(results),
    ...throughputLines(results),
    ...targetLines(results),
  ].join('\n');
}
