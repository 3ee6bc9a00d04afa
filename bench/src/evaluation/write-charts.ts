import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { plotSimulation } from '@compaction/simulation';
import { resultsDirectory } from '../results-file.js';
import { aggregate, billedRatioOf, compressionOf, retentionOf } from './aggregate.js';
import { type ContextSeries, contextChart, type RetentionPoint, retentionChart } from './charts.js';
import type { EvaluationRow } from './evaluate-policy.js';
import type { Policy } from './policies.js';
import type { TranscriptSummary } from './report.js';
import type { Verdict } from './verdict.js';

/** Writes the SVG charts and returns their file names. */
export function writeCharts(
  policies: readonly Policy[],
  evaluationRows: readonly EvaluationRow[],
  transcriptSummaries: readonly TranscriptSummary[],
  verdict: Verdict,
) {
  const bestId = verdict.best?.totals.policy.id;
  const billed = 'evaluation-billed.svg';
  writeFileSync(
    resolve(resultsDirectory, billed),
    retentionChart(
      billedRetentionPoints(policies, evaluationRows, verdict),
      'Probes kept against billed input with caching, per policy (coding, 32k)',
      'billed input with prompt caching, against no compaction',
    ),
  );
  const retention = 'evaluation-retention.svg';
  writeFileSync(
    resolve(resultsDirectory, retention),
    retentionChart(
      retentionPoints(policies, evaluationRows, transcriptSummaries),
      'Probes kept against tokens removed, per policy',
    ),
  );

  // The longest coding transcript at 32k: no compaction, the best pipeline and the reference policies.
  const longest = [...transcriptSummaries]
    .filter((summary) => summary.coding)
    .sort((left, right) => right.tokens - left.tokens)[0]!;
  const { series, limit } = contextSeries(evaluationRows, longest.name, bestId);
  const contextTitle = `Context size per model call: ${longest.name}, 32k window`;
  const context = 'evaluation-context.svg';
  writeFileSync(resolve(resultsDirectory, context), contextChart(series, limit, contextTitle));
  const bestRow = evaluationRows.find(
    (candidate) =>
      candidate.transcript === longest.name &&
      candidate.window.label === '32k' &&
      candidate.policy.id === bestId,
  );
  if (bestRow !== undefined) {
    writeFileSync(
      resolve(resultsDirectory, 'evaluation-context-best.svg'),
      plotSimulation(bestRow.simulation, 'Best pipeline at 32k'),
    );
  }
  return {
    retention,
    billed,
    context,
    contextTitle,
    best: bestRow === undefined ? undefined : 'evaluation-context-best.svg',
  };
}

/** Probes kept against tokens removed, per policy, for coding and tau-bench apart, each at its smallest window. */
function retentionPoints(
  policies: readonly Policy[],
  evaluationRows: readonly EvaluationRow[],
  transcriptSummaries: readonly TranscriptSummary[],
): RetentionPoint[] {
  const points: RetentionPoint[] = [];
  for (const group of ['coding', 'tau-bench'] as const) {
    const members = transcriptSummaries.filter((summary) => summary.coding === (group === 'coding'));
    const selected = evaluationRows.filter((row) => {
      const summary = members.find((candidate) => candidate.name === row.transcript);
      return summary !== undefined && row.window.label === summary.windows[0];
    });
    for (const policy of policies) {
      const totals = aggregate(policy, selected);
      if (totals.transcripts === 0) continue;
      points.push({
        series: policy.name,
        group,
        compression: compressionOf(totals),
        retention: retentionOf(totals.probes),
      });
    }
  }
  return points;
}

/** Probes kept against the input billed with prompt caching, per policy, on the verdict's transcripts at 32k. */
function billedRetentionPoints(
  policies: readonly Policy[],
  evaluationRows: readonly EvaluationRow[],
  verdict: Verdict,
): RetentionPoint[] {
  const points: RetentionPoint[] = [];
  for (const policy of policies) {
    const totals = aggregate(
      policy,
      evaluationRows.filter(
        (row) => row.window.label === '32k' && verdict.transcripts.includes(row.transcript),
      ),
    );
    if (totals.transcripts === 0) continue;
    points.push({
      series: policy.name,
      group: 'coding',
      compression: billedRatioOf(totals),
      retention: retentionOf(totals.probes),
    });
  }
  return points;
}

/** The context size per model call of one transcript at 32k, under no compaction, the best and the references. */
function contextSeries(
  evaluationRows: readonly EvaluationRow[],
  transcript: string,
  bestId: string | undefined,
): { series: ContextSeries[]; limit: number } {
  const shown = [
    'none',
    bestId ?? 'trunc+summary',
    'summary',
    'trunc+sliding',
    'anthropic-scaled',
    'masking-10',
    'openhands',
  ];
  const series: ContextSeries[] = [];
  let limit = 0;
  for (const id of [...new Set(shown)]) {
    const row = evaluationRows.find(
      (candidate) =>
        candidate.transcript === transcript && candidate.window.label === '32k' && candidate.policy.id === id,
    );
    if (row === undefined) continue;
    limit = row.limit;
    series.push({
      name: row.policy.name,
      tokens: row.simulation.steps.map((step) => step.contextTokens),
      compactions: row.simulation.steps
        .filter((step) => step.compaction !== undefined)
        .map((step) => step.step),
      dashed: id === 'none',
    });
  }
  return { series, limit };
}
