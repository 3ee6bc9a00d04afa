import { type Aggregate, aggregate, billedRatioOf, inputRatioOf, retentionOf } from './aggregate.js';
import type { EvaluationRow } from './evaluate-policy.js';
import type { LostProbe } from './loss-reasons.js';
import type { Policy } from './policies.js';

/** The bar: at least this share of probes kept... */
export const requiredRetention = 0.9;
/** ...while billing at most this share of no compaction's input. */
export const requiredBilling = 0.45;

/** One candidate of the check. */
export interface Candidate {
  totals: Aggregate;
  retention: number;
  /** Billed input with prompt caching, against no compaction. */
  billedRatio: number;
  /** Input tokens sent (what is billed without caching), against no compaction. */
  inputRatio: number;
  meetsWithCaching: boolean;
  meetsWithoutCaching: boolean;
  lost: LostProbe[];
}

/** The outcome of the check. */
export interface Verdict {
  window: string;
  transcripts: string[];
  candidates: Candidate[];
  /** The best candidate: the cheapest that meets the bar with caching, else the closest to it. */
  best: Candidate | undefined;
}

/**
 * The done-when check: on the coding transcripts that need compaction at the window, does a Compaction
 * strategy or pipeline keep at least 90% of the probes while billing at most 0.45 of no compaction's input?
 * Without one that meets it with caching, the best is the cheapest among those that keep 90% (what matters is
 * kept first: a policy that halves the bill by losing half the probes is no answer), else the highest
 * retention among those that bill at most 0.45, else the highest retention.
 */
export function decideVerdict(
  rows: readonly EvaluationRow[],
  candidates: readonly Policy[],
  transcripts: readonly string[],
  window: string,
): Verdict {
  const selected = rows.filter((row) => row.window.label === window && transcripts.includes(row.transcript));
  const results = candidates.map((policy): Candidate => {
    const totals = aggregate(policy, selected);
    const retention = retentionOf(totals.probes);
    const billedRatio = billedRatioOf(totals);
    const inputRatio = inputRatioOf(totals);
    return {
      totals,
      retention,
      billedRatio,
      inputRatio,
      meetsWithCaching: retention >= requiredRetention && billedRatio <= requiredBilling,
      meetsWithoutCaching: retention >= requiredRetention && inputRatio <= requiredBilling,
      lost: selected.filter((row) => row.policy === policy).flatMap((row) => row.lost),
    };
  });
  const byBilling = (left: Candidate, right: Candidate) => left.billedRatio - right.billedRatio;
  const byRetention = (left: Candidate, right: Candidate) =>
    right.retention - left.retention || byBilling(left, right);
  const best =
    results.filter((candidate) => candidate.meetsWithCaching).sort(byBilling)[0] ??
    results.filter((candidate) => candidate.retention >= requiredRetention).sort(byBilling)[0] ??
    results.filter((candidate) => candidate.billedRatio <= requiredBilling).sort(byRetention)[0] ??
    [...results].sort(byRetention)[0];
  return { window, transcripts: [...transcripts], candidates: results, best };
}
