import type { EvaluationRow } from './evaluate-policy.js';
import type { Policy } from './policies.js';
import { type ProbeKind, probeKinds } from './probe.js';
import type { KindRetention } from './retention.js';

/** One policy's rows added up over several transcripts. */
export interface Aggregate {
  policy: Policy;
  transcripts: number;
  steps: number;
  compactions: number;
  overLimitSteps: number;
  /** Probes over all transcripts: `kept / total` is the pooled retention. */
  probes: KindRetention;
  /** Probes present or reachable through a recall handle in the final context, over all transcripts. */
  recoverable: number;
  byKind: Record<ProbeKind, KindRetention>;
  finalTokens: number;
  uncompactedTokens: number;
  inputTokens: number;
  baselineInputTokens: number;
  billedInputTokens: number;
  baselineBilledInputTokens: number;
  cost: number;
  baselineCost: number;
  /** The recall calls that bring back the lost but recoverable probes, and their input, plain and billed. */
  recallCalls: number;
  recallInputTokens: number;
  recallBilledInputTokens: number;
}

/** Adds up the rows of one policy. */
export function aggregate(policy: Policy, rows: readonly EvaluationRow[]): Aggregate {
  const byKind = Object.fromEntries(probeKinds.map((kind) => [kind, { total: 0, kept: 0 }])) as Record<
    ProbeKind,
    KindRetention
  >;
  const total: Aggregate = {
    policy,
    transcripts: 0,
    steps: 0,
    compactions: 0,
    overLimitSteps: 0,
    probes: { total: 0, kept: 0 },
    recoverable: 0,
    byKind,
    finalTokens: 0,
    uncompactedTokens: 0,
    inputTokens: 0,
    baselineInputTokens: 0,
    billedInputTokens: 0,
    baselineBilledInputTokens: 0,
    cost: 0,
    baselineCost: 0,
    recallCalls: 0,
    recallInputTokens: 0,
    recallBilledInputTokens: 0,
  };
  for (const row of rows) {
    if (row.policy !== policy) continue;
    total.transcripts++;
    total.steps += row.steps;
    total.compactions += row.compactions;
    total.overLimitSteps += row.overLimitSteps;
    total.probes.total += row.retention.total;
    total.probes.kept += row.retention.kept;
    total.recoverable += row.retention.recoverable;
    for (const kind of probeKinds) {
      byKind[kind].total += row.retention.byKind[kind].total;
      byKind[kind].kept += row.retention.byKind[kind].kept;
    }
    total.finalTokens += row.finalTokens;
    total.uncompactedTokens += row.uncompactedTokens;
    total.inputTokens += row.inputTokens;
    total.baselineInputTokens += row.baselineInputTokens;
    total.billedInputTokens += row.billedInputTokens;
    total.baselineBilledInputTokens += row.baselineBilledInputTokens;
    total.cost += row.cost;
    total.baselineCost += row.baselineCost;
    total.recallCalls += row.recall.calls;
    total.recallInputTokens += row.recall.inputTokens;
    total.recallBilledInputTokens += row.recall.billedInputTokens;
  }
  return total;
}

/** Pooled retention: probes kept over probes, 1 when there are none. */
export function retentionOf(counts: KindRetention): number {
  return counts.total === 0 ? 1 : counts.kept / counts.total;
}

/** Pooled recoverable retention: probes present or reachable through a handle, over probes; 1 when none. */
export function recoverableOf(totals: { probes: KindRetention; recoverable: number }): number {
  return totals.probes.total === 0 ? 1 : totals.recoverable / totals.probes.total;
}

/** Share of the final context's tokens removed, against the whole uncompacted history. */
export function compressionOf(totals: { finalTokens: number; uncompactedTokens: number }): number {
  return totals.uncompactedTokens === 0 ? 0 : 1 - totals.finalTokens / totals.uncompactedTokens;
}

/** Billed input (with caching) against no compaction. */
export function billedRatioOf(totals: {
  billedInputTokens: number;
  baselineBilledInputTokens: number;
}): number {
  return totals.baselineBilledInputTokens === 0
    ? 1
    : totals.billedInputTokens / totals.baselineBilledInputTokens;
}

/** Input tokens sent (billed without caching) against no compaction. */
export function inputRatioOf(totals: { inputTokens: number; baselineInputTokens: number }): number {
  return totals.baselineInputTokens === 0 ? 1 : totals.inputTokens / totals.baselineInputTokens;
}

/** Billed input with caching against no compaction, with the recall calls that bring back the recoverable probes. */
export function billedWithRecallRatioOf(totals: {
  billedInputTokens: number;
  recallBilledInputTokens: number;
  baselineBilledInputTokens: number;
}): number {
  return totals.baselineBilledInputTokens === 0
    ? 1
    : (totals.billedInputTokens + totals.recallBilledInputTokens) / totals.baselineBilledInputTokens;
}
