import type { PriceModel } from '@compaction/simulation';
import {
  aggregate,
  billedRatioOf,
  billedWithRecallRatioOf,
  inputRatioOf,
  recoverableOf,
  retentionOf,
} from './aggregate.js';
import type { EvaluationRow } from './evaluate-policy.js';
import { percent, ratio, table } from './format.js';
import type { Policy } from './policies.js';
import { requiredBilling, requiredRetention } from './verdict.js';

/** What the levers' section reads of a transcript: whether it is a coding one, and where it needs compaction. */
type TranscriptSummary = { name: string; coding: boolean; windows: readonly string[] };

/** The policies of the levers' table: the best pipeline before the levers, each lever, both, the references. */
export const leverPolicyIds = [
  'trunc+summary-early',
  'cache-aware',
  'caps',
  'caps+cache-aware',
  'mask+summary-cost',
  'deep',
  'mask+continuation',
  'continuation',
  'summary-4k',
  'continuation-explored',
  'trail-4k',
  'continuation-after-task',
  'trail-after-task',
  'anthropic-scaled',
  'server-compaction',
] as const;

/** The windows of the levers' table. */
export const leverWindows = ['16k', '32k', '64k'] as const;

/** Where a policy's bill goes, as shares of no compaction's billed input on the same rows. */
export interface BillShares {
  /** Cache writes of the model calls: each message's first write, plus every rewrite after a compaction. */
  writes: number;
  /** Of the writes, each message written once as it arrived (capped where the policy caps). */
  firstWrites: number;
  /** Cache reads of the model calls. */
  reads: number;
  /**
   * The summarizer's own calls, however billed: uncached for a transcript, mostly cache reads for a request that
   * continues the conversation (its reads and writes are here, not in `reads` and `writes`).
   */
  summarizer: number;
  /** Of those, the part billed uncached (requests of their own, such as a transcript). */
  summarizerUncached: number;
  /** No compaction's own writes: each message written once, the floor no policy that sends it escapes. */
  baselineWrites: number;
  /** What no compaction pays for the head every call repeats (system prompt, task): one write, then reads. */
  baselineHead: number;
  /** The model's output in dollars, against no compaction's whole bill in dollars (input and output). */
  outputDollars: number;
}

/** Splits the billed input of `policy` on `rows` by how it is billed. */
export function billShares(policy: Policy, rows: readonly EvaluationRow[], prices: PriceModel): BillShares {
  const write = prices.cacheWritePerMillion / prices.inputPerMillion;
  const read = prices.cacheReadPerMillion / prices.inputPerMillion;
  const shares = {
    writes: 0,
    firstWrites: 0,
    reads: 0,
    summarizer: 0,
    summarizerUncached: 0,
    baselineWrites: 0,
    baselineHead: 0,
    outputDollars: 0,
  };
  let baseline = 0;
  let baselineDollars = 0;
  for (const row of rows) {
    if (row.policy !== policy) continue;
    const { totals, baseline: none, steps } = row.simulation;
    const calls = steps.flatMap((step) => (step.compaction === undefined ? [] : [step.compaction.billed]));
    const summarizerWrites = calls.reduce((sum, call) => sum + call.cacheWriteTokens, 0);
    const summarizerReads = calls.reduce((sum, call) => sum + call.cacheReadTokens, 0);
    const summarizerUncached = calls.reduce((sum, call) => sum + call.uncachedInputTokens, 0);
    shares.writes += (totals.cacheWriteTokens - summarizerWrites) * write;
    shares.firstWrites += row.firstSentTokens * write;
    shares.reads += (totals.cacheReadTokens - summarizerReads) * read;
    shares.summarizer += summarizerUncached + summarizerWrites * write + summarizerReads * read;
    shares.summarizerUncached += summarizerUncached;
    shares.baselineWrites += none.cacheWriteTokens * write;
    shares.baselineHead += row.headTokens * (write + read * Math.max(0, row.steps - 1));
    shares.outputDollars += (none.outputTokens * prices.outputPerMillion) / 1_000_000;
    baseline += row.baselineBilledInputTokens;
    baselineDollars += row.baselineCost;
  }
  if (baseline === 0) return shares;
  return {
    writes: shares.writes / baseline,
    firstWrites: shares.firstWrites / baseline,
    reads: shares.reads / baseline,
    summarizer: shares.summarizer / baseline,
    summarizerUncached: shares.summarizerUncached / baseline,
    baselineWrites: shares.baselineWrites / baseline,
    baselineHead: shares.baselineHead / baseline,
    outputDollars: baselineDollars === 0 ? 0 : shares.outputDollars / baselineDollars,
  };
}

/** The coding transcripts that need compaction at `label`, with their rows at it. */
export function codingRowsAt(
  label: string,
  rows: readonly EvaluationRow[],
  transcripts: readonly TranscriptSummary[],
): { names: string[]; rows: EvaluationRow[] } {
  const names = transcripts
    .filter((transcript) => transcript.coding && transcript.windows.includes(label))
    .map((transcript) => transcript.name);
  return { names, rows: rows.filter((row) => row.window.label === label && names.includes(row.transcript)) };
}

/** One lever policy measured on the coding transcripts that need compaction at one window. */
export interface LeverMeasure {
  policy: Policy;
  window: string;
  transcripts: number;
  retention: number;
  /** Probes kept or reachable through a recall handle in the final context. */
  recoverable: number;
  billedRatio: number;
  /** The bill with the recall calls that bring back the recoverable probes. */
  billedWithRecallRatio: number;
  recallCalls: number;
  inputRatio: number;
  compactions: number;
  shares: BillShares;
}

/** The lever policies at each window of the levers' table. */
export function measureLevers(
  policies: readonly Policy[],
  rows: readonly EvaluationRow[],
  transcripts: readonly TranscriptSummary[],
  prices: PriceModel,
): LeverMeasure[] {
  const shown = leverPolicyIds
    .map((id) => policies.find((policy) => policy.id === id))
    .filter((policy) => policy !== undefined);
  return leverWindows.flatMap((label) => {
    const selected = codingRowsAt(label, rows, transcripts);
    if (selected.names.length === 0) return [];
    return shown.map((policy) => measurePolicy(policy, label, selected.rows, prices));
  });
}

/** One policy on `rows` (its rows among them, at one window), against no compaction on the same rows. */
export function measurePolicy(
  policy: Policy,
  window: string,
  rows: readonly EvaluationRow[],
  prices: PriceModel,
): LeverMeasure {
  const totals = aggregate(policy, rows);
  return {
    policy,
    window,
    transcripts: totals.transcripts,
    retention: retentionOf(totals.probes),
    recoverable: recoverableOf(totals),
    billedRatio: billedRatioOf(totals),
    billedWithRecallRatio: billedWithRecallRatioOf(totals),
    recallCalls: totals.recallCalls,
    inputRatio: inputRatioOf(totals),
    compactions: totals.compactions,
    shares: billShares(policy, rows, prices),
  };
}

/** The cheapest lever policies at the verdict's window that keep at least 90%: in context, with a summarizer, with recall. */
export interface CostFloor {
  window: string;
  /** The cheapest that keeps 90% in the final context. */
  inContext: LeverMeasure | undefined;
  /** The cheapest of those that call the summarizer. */
  summarizing: LeverMeasure | undefined;
  /** The cheapest, bill with recall, that keeps 90% in context or through recall. */
  withRecall: LeverMeasure | undefined;
}

/** Finds {@link CostFloor} among the measured lever policies. */
export function costFloor(measures: readonly LeverMeasure[], window = '32k'): CostFloor {
  const at = measures.filter((measure) => measure.window === window);
  const cheapest = (candidates: LeverMeasure[], bill: (measure: LeverMeasure) => number) =>
    candidates.sort((left, right) => bill(left) - bill(right))[0];
  const keeping = at.filter((measure) => measure.retention >= requiredRetention);
  return {
    window,
    inContext: cheapest([...keeping], (measure) => measure.billedRatio),
    summarizing: cheapest(
      keeping.filter((measure) => measure.policy.summarizes),
      (measure) => measure.billedRatio,
    ),
    withRecall: cheapest(
      at.filter((measure) => measure.recoverable >= requiredRetention),
      (measure) => measure.billedWithRecallRatio,
    ),
  };
}

/** Retention, bill, the same with recall, recall calls and input sent: the cells every table of measures shares. */
export function measureCells(
  measure: Pick<
    LeverMeasure,
    'retention' | 'billedRatio' | 'recoverable' | 'billedWithRecallRatio' | 'recallCalls' | 'inputRatio'
  >,
): string[] {
  return [
    percent(measure.retention),
    ratio(measure.billedRatio, 3),
    percent(measure.recoverable),
    ratio(measure.billedWithRecallRatio, 3),
    String(measure.recallCalls),
    ratio(measure.inputRatio, 3),
  ];
}

/** The section on the cost levers: each alone and together, at 16k, 32k and 64k, with where the bill goes. */
export function renderCostLevers(measures: readonly LeverMeasure[], prices: PriceModel): string[] {
  const body = measures.map((measure) => [
    measure.window,
    String(measure.transcripts),
    measure.policy.name,
    ...measureCells(measure),
    percent(measure.shares.firstWrites),
    percent(measure.shares.writes - measure.shares.firstWrites),
    percent(measure.shares.reads),
    percent(measure.shares.summarizer),
  ]);
  return [
    '## Cost levers',
    '',
    'Each lever alone and together, on the coding transcripts that need compaction at each window (the number in the ' +
      'second column), against no compaction on the same transcripts. **The bar uses retention in context**: the probes ' +
      'the final context still holds. Retention with recall adds those it names a handle for; its bill adds the recall ' +
      'calls that would bring them back at the end of the run, one model request per archived item read (the context ' +
      'and earlier recalls read from the cache, the call and the recalled text written to it and carried in every later ' +
      'recall). The bill with caching splits into first writes (every message once when first sent, capped where the ' +
      'policy caps), rewrites (after every compaction, the context written again from the first message it ' +
      'changed: a summary placed before the task starts there, one placed after the task leaves the system prompt ' +
      'and the task in the cache), cache reads, and the ' +
      'summarizer’s own calls (uncached for a transcript; asked in the conversation, a cache read of the prefix the last ' +
      'call wrote while the cache is warm, the rest written), each as a share of no compaction’s bill. The cache lifetime is 5 ' +
      'minutes; the time between calls is taken from the transcripts where recorded (mini-swe-agent’s response times, ' +
      'all well under 5 minutes apart), and assumed to be 30 seconds elsewhere.',
    '',
    table(
      [
        'window',
        'transcripts',
        'policy',
        'retention',
        'billed with caching ×none',
        'retention with recall',
        'billed with recall ×none',
        'recall calls',
        'input sent ×none (no caching)',
        'first writes',
        'rewrites',
        'reads',
        'summarizer calls',
      ],
      body,
    ),
    '',
    ...floorNote(measures, prices),
  ];
}

/** How a policy's summarizer calls are billed, in words: mostly uncached (a transcript) or mostly from the cache. */
export function summarizerCallsNote(shares: Pick<BillShares, 'summarizer' | 'summarizerUncached'>): string {
  return shares.summarizerUncached * 2 >= shares.summarizer
    ? 'its calls read each span at the full input price'
    : 'its calls, asked in the conversation, read the prefix the last call wrote from the cache';
}

/** Where the bill goes at the verdict's window, and what it leaves a policy that keeps 90%, in numbers. */
function floorNote(measures: readonly LeverMeasure[], prices: PriceModel): string[] {
  const floor = costFloor(measures);
  const first = measures.find((measure) => measure.window === floor.window);
  if (first === undefined) return [];
  const none = first.shares;
  const split = (measure: LeverMeasure) =>
    `first writes ${percent(measure.shares.firstWrites)}, rewrites ${percent(measure.shares.writes - measure.shares.firstWrites)}, ` +
    `reads ${percent(measure.shares.reads)}, summarizer calls ${percent(measure.shares.summarizer)}`;
  const describe = (measure: LeverMeasure | undefined, bill: 'billed' | 'recall' = 'billed') =>
    measure === undefined
      ? 'none of the policies here'
      : bill === 'billed'
        ? `${measure.policy.name}, ${percent(measure.retention)} kept at ${ratio(measure.billedRatio, 3)} (${split(measure)})`
        : `${measure.policy.name}, ${percent(measure.recoverable)} with recall at ${ratio(measure.billedWithRecallRatio, 3)} ` +
          `(${measure.recallCalls} recall ${measure.recallCalls === 1 ? 'call' : 'calls'}; ${ratio(measure.billedRatio, 3)} without recall)`;
  const summarizing = floor.summarizing;
  return [
    `**Where the bill goes, and the floor (${floor.window}).** No compaction’s billed input is ${percent(none.baselineWrites)} ` +
      `writing each message once (at ${ratio(prices.cacheWritePerMillion / prices.inputPerMillion)} the input price) and ` +
      `${percent(1 - none.baselineWrites)} reading the prefix again at every call; the system prompt and task that every call ` +
      `repeats are ${percent(none.baselineHead)} of it. The model’s output, ${percent(none.outputDollars)} of no compaction’s ` +
      'dollars, is the same for every policy and not part of the ratio. Every policy pays the first writes (less what caps ' +
      'cut): what it can save is reads, what it adds is rewrites and summarizer calls. ' +
      `The cheapest policy here that keeps at least ${percent(requiredRetention, 0)} in context is ${describe(floor.inContext)}. ` +
      (summarizing === undefined
        ? `No policy here that calls the summarizer keeps ${percent(requiredRetention, 0)}. `
        : `Calling the summarizer, the cheapest is ${describe(summarizing)}: ${summarizerCallsNote(summarizing.shares)}, ` +
          `${percent(summarizing.shares.summarizer)} of no compaction’s bill` +
          (summarizing.billedRatio <= requiredBilling
            ? ', and it is within the bar. '
            : summarizing.billedRatio - summarizing.shares.summarizer <= requiredBilling
              ? ', which alone puts it over the bar. '
              : ', and it would be over the bar even without it. ')) +
      `Counting recall, the cheapest at ${percent(requiredRetention, 0)} with recall is ${describe(floor.withRecall, 'recall')}. ` +
      'Clearing deeper lowers the reads, but the artifact trail that holds the commands, paths and errors is then ' +
      'folded (oldest first) to fit, so retention in context falls first; its size, not a share of the window, is what a ' +
      'compaction must keep.',
  ];
}
