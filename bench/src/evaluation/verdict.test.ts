import { describe, expect, it } from 'vitest';
import { policies } from './all-policies.js';
import type { EvaluationRow } from './evaluate-policy.js';
import type { Policy } from './policies.js';
import { probeKinds } from './probe.js';
import { decideVerdict } from './verdict.js';

const [first, second, third] = policies.filter((policy) => policy.kind !== 'baseline');
const window = { label: '32k', contextWindow: 32_000 };

/** A row with the numbers the verdict reads: probes kept of 10, billed and sent input against 100. */
function row(policy: Policy, kept: number, billed: number, sent: number, transcript = 'a'): EvaluationRow {
  const byKind = Object.fromEntries(probeKinds.map((kind) => [kind, { total: 0, kept: 0 }]));
  byKind.command = { total: 10, kept };
  return {
    transcript,
    coding: true,
    policy,
    window,
    retention: {
      total: 10,
      kept,
      share: kept / 10,
      recoverable: kept,
      recoverableShare: kept / 10,
      byKind,
      lost: [],
    },
    lost: [],
    recall: { calls: 0, inputTokens: 0, billedInputTokens: 0, outputTokens: 0 },
    billedInputTokens: billed,
    baselineBilledInputTokens: 100,
    inputTokens: sent,
    baselineInputTokens: 100,
  } as unknown as EvaluationRow;
}

describe('decideVerdict', () => {
  it('picks the cheapest candidate that keeps 90% and bills at most 0.45 of no compaction', () => {
    const rows = [row(first!, 10, 45, 30), row(second!, 9, 40, 30), row(third!, 8, 20, 10)];
    const verdict = decideVerdict(rows, [first!, second!, third!], ['a'], '32k');
    expect(verdict.best?.totals.policy).toBe(second);
    expect(verdict.best?.meetsWithCaching).toBe(true);
    expect(verdict.candidates.map((candidate) => candidate.meetsWithCaching)).toEqual([true, true, false]);
  });

  it('without one, picks the cheapest that keeps 90%, then the best retention among those that bill at most 0.45', () => {
    const keeping = decideVerdict(
      [row(first!, 10, 70, 40), row(second!, 9, 60, 50), row(third!, 5, 30, 20)],
      [first!, second!, third!],
      ['a'],
      '32k',
    );
    // The third bills less than half but loses half the probes: retention decides first.
    expect(keeping.best?.totals.policy).toBe(second);
    expect(keeping.best?.meetsWithCaching).toBe(false);
    expect(keeping.candidates[0]!.meetsWithoutCaching).toBe(true);
    const halving = decideVerdict(
      [row(first!, 8, 70, 40), row(second!, 7, 45, 30), row(third!, 5, 30, 20)],
      [first!, second!, third!],
      ['a'],
      '32k',
    );
    expect(halving.best?.totals.policy).toBe(second);
    expect(halving.best?.meetsWithoutCaching).toBe(false);
  });

  it('adds up only the named transcripts at the window', () => {
    const rows = [row(first!, 10, 40, 40, 'a'), row(first!, 0, 100, 100, 'b')];
    const verdict = decideVerdict(rows, [first!], ['a'], '32k');
    expect(verdict.best?.retention).toBe(1);
    expect(verdict.best?.billedRatio).toBe(0.4);
  });
});
