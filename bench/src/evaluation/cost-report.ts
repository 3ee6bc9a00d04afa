import type { PriceModel } from '@compaction/cli';
import { aggregate, billedRatioOf, inputRatioOf, retentionOf } from './aggregate.js';
import type { EvaluationRow } from './evaluate-policy.js';
import { percent, ratio, table } from './format.js';
import type { Policy } from './policies.js';
import { requiredRetention } from './verdict.js';

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
  'anthropic-scaled',
  'server-compaction',
] as const;

/** The windows of the levers' table. */
export const leverWindows = ['16k', '32k', '64k'] as const;

/** Where a policy's bill goes, as shares of no compaction's billed input on the same rows. */
export interface BillShares {
  /** Cache writes: each message's first write, plus every rewrite after a compaction. */
  writes: number;
  reads: number;
  /** Input billed uncached: the summarizer's own calls. */
  uncached: number;
  /** No compaction's own writes: each message written once, the floor no policy that sends it escapes. */
  baselineWrites: number;
}

/** Splits the billed input of `policy` on `rows` by how it is billed. */
export function billShares(policy: Policy, rows: readonly EvaluationRow[], prices: PriceModel): BillShares {
  const write = prices.cacheWritePerMillion / prices.inputPerMillion;
  const read = prices.cacheReadPerMillion / prices.inputPerMillion;
  const shares = { writes: 0, reads: 0, uncached: 0, baselineWrites: 0 };
  let baseline = 0;
  for (const row of rows) {
    if (row.policy !== policy) continue;
    const { totals, baseline: none } = row.simulation;
    shares.writes += totals.cacheWriteTokens * write;
    shares.reads += totals.cacheReadTokens * read;
    shares.uncached += totals.uncachedInputTokens;
    shares.baselineWrites += none.cacheWriteTokens * write;
    baseline += row.baselineBilledInputTokens;
  }
  if (baseline === 0) return shares;
  return {
    writes: shares.writes / baseline,
    reads: shares.reads / baseline,
    uncached: shares.uncached / baseline,
    baselineWrites: shares.baselineWrites / baseline,
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

/** The section on the cost levers: each alone and together, at 16k, 32k and 64k, with where the bill goes. */
export function renderCostLevers(
  policies: readonly Policy[],
  rows: readonly EvaluationRow[],
  transcripts: readonly TranscriptSummary[],
  prices: PriceModel,
): string[] {
  const shown = leverPolicyIds
    .map((id) => policies.find((policy) => policy.id === id))
    .filter((policy) => policy !== undefined);
  const body: string[][] = [];
  const floors: string[] = [];
  for (const label of leverWindows) {
    const selected = codingRowsAt(label, rows, transcripts);
    if (selected.names.length === 0) continue;
    for (const policy of shown) {
      const totals = aggregate(policy, selected.rows);
      const shares = billShares(policy, selected.rows, prices);
      body.push([
        label,
        String(selected.names.length),
        policy.name,
        percent(retentionOf(totals.probes)),
        ratio(billedRatioOf(totals), 3),
        ratio(inputRatioOf(totals), 3),
        percent(shares.writes),
        percent(shares.reads),
        percent(shares.uncached),
      ]);
    }
    const first = shown[0];
    if (first !== undefined) {
      const shares = billShares(first, selected.rows, prices);
      floors.push(`${label}: ${percent(shares.baselineWrites)}`);
    }
  }
  return [
    '## Cost levers',
    '',
    'Each lever alone and together, on the coding transcripts that need compaction at each window (the number in the ' +
      'second column), against no compaction on the same transcripts. The bill with caching splits into cache writes ' +
      '(every message once when first sent, and the kept context again after every compaction), cache reads, and input ' +
      'billed uncached (the summarizer’s own calls), each as a share of no compaction’s bill. The cache lifetime is 5 ' +
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
        'input sent ×none (no caching)',
        'writes',
        'reads',
        'uncached',
      ],
      body,
    ),
    '',
    ...floorNote(shown, rows, transcripts, prices, floors),
  ];
}

/** Where the cheapest policies of the verdict's window stand, with the shares of their bills, in numbers. */
function floorNote(
  shown: readonly Policy[],
  rows: readonly EvaluationRow[],
  transcripts: readonly TranscriptSummary[],
  prices: PriceModel,
  floors: readonly string[],
): string[] {
  const selected = codingRowsAt('32k', rows, transcripts).rows;
  const measured = shown.map((policy) => {
    const totals = aggregate(policy, selected);
    return { policy, retention: retentionOf(totals.probes), billed: billedRatioOf(totals) };
  });
  const describe = (entry: (typeof measured)[number] | undefined) => {
    if (entry === undefined) return 'none';
    const shares = billShares(entry.policy, selected, prices);
    return (
      `${entry.policy.name}, ${percent(entry.retention)} kept at ${ratio(entry.billed, 3)} (writes ${percent(shares.writes)}, ` +
      `reads ${percent(shares.reads)}, uncached ${percent(shares.uncached)})`
    );
  };
  const byBill = [...measured].sort((left, right) => left.billed - right.billed);
  const keeping = byBill.find((entry) => entry.retention >= requiredRetention);
  return [
    `**The floor.** Writing each message once costs ${floors.join(', ')} of no compaction’s bill at 1.25 × the input ` +
      'price; every policy that sends the messages pays it, less only what caps at ingestion cut. A summarizer that ' +
      'reads what it replaces at the full input price adds roughly every token once more (the uncached column). ' +
      `At 32k the cheapest policy here that keeps at least ${percent(requiredRetention, 0)} is ${describe(keeping)}; ` +
      `the cheapest of all is ${describe(byBill[0])}. Clearing deeper lowers the reads, but with a summarizer that ` +
      'writes no facts the turns it replaces take their commands and paths with them, so retention falls first.',
  ];
}
