/**
 * `pnpm evaluate` (in bench/): the evaluation on the shared real transcripts. Replays every transcript through
 * `@compaction/simulation` with every Compaction strategy and pipeline and the reference policies, measures
 * probe retention, billed input with prompt caching and compactions, times every strategy, and writes
 * bench/results/evaluation.md and its SVG charts. `--quick` (or the `CI` environment variable) keeps the
 * simulations, which are deterministic, and takes fewer timing runs.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { createTokenCounter, resolveBudget } from '@compaction/core';
import { defaultPriceModel } from '@compaction/simulation';
import { generateCodingHistory } from '@compaction/testing';
import { codingSources, loadTranscripts, missingTranscriptsMessage } from '@compaction/testing/transcripts';
import { readmePath, withGeneratedSection } from '../readme/generated-section.js';
import { resultsDirectory } from '../results-file.js';
import { policies } from './all-policies.js';
import { costPolicies } from './cost-policies.js';
import { costFloor, type LeverMeasure, measureLevers } from './cost-report.js';
import { type EvaluationRow, evaluatePolicy } from './evaluate-policy.js';
import { probeKinds } from './probe.js';
import { applicableProbes, extractProbes } from './probes.js';
import {
  type EvaluationSummary,
  evaluationReadmeFigures,
  evaluationSectionName,
  evaluationSummaryFile,
  leverFigure,
} from './readme-figures.js';
import { renderReport, type TranscriptSummary } from './report.js';
import { type SpeedResult, timePolicy } from './speed.js';
import { decideVerdict, requiredBilling, requiredRetention } from './verdict.js';
import { type EvaluationWindow, fixedWindows, scaledWindow } from './windows.js';
import { evaluateWorkingState, workingStatePolicies } from './working-state.js';
import { renderWorkingState } from './working-state-report.js';
import { writeCharts } from './write-charts.js';

const quick = process.argv.includes('--quick') || Boolean(process.env.CI);
const speedRuns = quick ? { transcripts: 3, generated: 3 } : { transcripts: 9, generated: 7 };
const generatedWindow: EvaluationWindow = { label: '200k', contextWindow: 200_000 };
const started = performance.now();
const log = (message: string) =>
  process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(1)}s] ${message}\n`);

const transcripts = loadTranscripts();
if (transcripts.length === 0) {
  process.stderr.write(`No transcripts: ${missingTranscriptsMessage}. Nothing evaluated.\n`);
  process.exit(0);
}

const defaultTrigger = (contextWindow: number) =>
  resolveBudget({ contextWindow }).trigger ?? Number.POSITIVE_INFINITY;
const rows: EvaluationRow[] = [];
const summaries: TranscriptSummary[] = [];
for (const transcript of transcripts) {
  const coding = codingSources.includes(transcript.source);
  const tokens = createTokenCounter().count(transcript.messages);
  const { applicable, absent } = applicableProbes(extractProbes(transcript), transcript.messages);
  const needs = fixedWindows.filter((window) => tokens > defaultTrigger(window.contextWindow));
  // Its own window comes first: 32k when it needs compaction there, else its scaled window.
  const own = needs.find((window) => window.label === '32k') ?? scaledWindow(tokens);
  const windows = [own, ...needs.filter((window) => window !== own)];
  const evaluated = [...fixedWindows, ...(own.label === 'scaled' ? [own] : [])];
  for (const window of evaluated) {
    for (const policy of policies) {
      // tau-bench fits 32k whole: its fixed windows only repeat no compaction, so only the scaled one runs.
      if (!coding && window !== own) continue;
      rows.push(await evaluatePolicy({ transcript, coding, probes: applicable, policy, window }));
    }
  }
  summaries.push({
    name: transcript.name,
    source: transcript.source,
    coding,
    messages: transcript.messages.length,
    tokens,
    probes: Object.fromEntries(
      probeKinds.map((kind) => [kind, applicable.filter((probe) => probe.kind === kind).length]),
    ) as TranscriptSummary['probes'],
    absentProbes: absent.length,
    windows: windows.map((window) => window.label),
  });
  log(`simulated ${transcript.name}`);
}

const codingNeeding32k = summaries
  .filter((summary) => summary.coding && summary.windows.includes('32k'))
  .map((summary) => summary.name);
const verdict = decideVerdict(
  rows,
  policies.filter((policy) => policy.kind === 'strategy' || policy.kind === 'pipeline'),
  codingNeeding32k,
  '32k',
);

const speed: SpeedResult[] = [];
// The cost levers run the same strategies as the pipelines they change (only when, and on what input): they are
// not timed again.
const timedPolicies = policies.filter(
  (policy) =>
    policy.kind !== 'baseline' &&
    !costPolicies.some((lever) => lever.id === policy.id && lever.kind !== 'reference'),
);
const generated = { name: 'generateCodingHistory()', messages: generateCodingHistory() };
for (const policy of timedPolicies) {
  speed.push(await timePolicy(policy, generated, generatedWindow, speedRuns.generated));
}
log('timed the generated history');
for (const transcript of transcripts) {
  const window = scaledWindow(createTokenCounter().count(transcript.messages));
  for (const policy of timedPolicies)
    speed.push(await timePolicy(policy, transcript, window, speedRuns.transcripts));
}
log('timed the transcripts');

mkdirSync(resultsDirectory, { recursive: true });
const charts = writeCharts(policies, rows, summaries, verdict);
const levers = measureLevers(policies, rows, summaries, defaultPriceModel);
const floor = costFloor(levers);
const byBilling = (left: LeverMeasure, right: LeverMeasure) => left.billedRatio - right.billedRatio;
const workingState = await evaluateWorkingState(
  // Beside the best, the summarizing floor, else the cheapest summarizing lever at the verdict's window, whose
  // language can be set.
  workingStatePolicies(
    verdict.best?.totals.policy,
    [floor.summarizing, ...levers.filter((lever) => lever.window === verdict.window).sort(byBilling)].map(
      (lever) => lever?.policy,
    ),
  ),
  transcripts.filter((transcript) => verdict.transcripts.includes(transcript.name)),
  fixedWindows.find((window) => window.label === verdict.window) ?? scaledWindow(0),
);
log('probed the working state');
const report = renderReport({
  quick,
  environment: `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}`,
  prices: defaultPriceModel,
  policies,
  transcripts: summaries,
  rows,
  verdict,
  levers,
  speed,
  speedRuns,
  generatedHistory: { name: generated.name, window: generatedWindow.contextWindow },
  charts,
});
writeFileSync(resolve(resultsDirectory, 'evaluation.md'), `${report}\n${renderWorkingState(workingState)}`);
log(`wrote ${resolve(resultsDirectory, 'evaluation.md')}`);
const best = verdict.best;
if (best !== undefined) {
  const summary: EvaluationSummary = {
    window: verdict.window,
    transcripts: verdict.transcripts,
    requiredRetention,
    requiredBilling,
    best: {
      policy: best.totals.policy.name,
      kept: best.totals.probes.kept,
      total: best.totals.probes.total,
      retention: best.retention,
      billedRatio: best.billedRatio,
      inputRatio: best.inputRatio,
      meetsWithCaching: best.meetsWithCaching,
    },
    levers: levers.map(leverFigure),
    floor: {
      window: floor.window,
      ...(floor.summarizing === undefined ? {} : { summarizing: leverFigure(floor.summarizing) }),
      ...(floor.withRecall === undefined ? {} : { withRecall: leverFigure(floor.withRecall) }),
    },
    workingState,
  };
  evaluationSummaryFile.save(summary);
  const readme = readFileSync(readmePath, 'utf8');
  writeFileSync(
    readmePath,
    withGeneratedSection(readme, evaluationSectionName, evaluationReadmeFigures(summary)),
  );
  process.stdout.write(
    `Best at 32k on ${verdict.transcripts.join(', ')}: ${best.totals.policy.name}, retention ${(best.retention * 100).toFixed(1)}%, ` +
      `billed ${best.billedRatio.toFixed(3)}× with caching, ${best.inputRatio.toFixed(2)}× input sent; ` +
      `${best.meetsWithCaching ? 'meets' : 'does not meet'} the bar with caching.\n`,
  );
}
