/**
 * `pnpm bench:background`: how long `prepare` blocks when the trigger fires, with compaction in line and with
 * `background` (compaction started at `prepareAt`, off the critical path), side by side in one run; and what
 * each keeps (the evaluation's retention probes in the final context) and costs (the requests sent, priced
 * with prompt caching by `@compaction/simulation`, plus every summarizer call, used or dropped). A scripted
 * summarizer answers after 2 seconds (a timer in the process, not a loopback HTTP server: the wait is what
 * matters, not the wire); each replayed model call takes a simulated 2 seconds too (`--model-call <ms>` changes
 * it). The agent loop replays the shared coding transcripts, in two settings of context window at once (see
 * `windowSettings`): a stress window of a third of each history, and one whose room over the trigger holds the
 * largest turn. Saves bench/results/background.json and writes the background figures of bench/README.md from it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { createTokenCounter } from '@compaction/core';
import { billRun, defaultPriceModel } from '@compaction/simulation';
import { codingSources, loadTranscripts, missingTranscriptsMessage } from '@compaction/testing/transcripts';
import { applicableProbes, extractProbes } from '../evaluation/probes.js';
import { measureRetention } from '../evaluation/retention.js';
import { readmePath, withGeneratedSection } from '../readme/generated-section.js';
import {
  type BackgroundChecks,
  type BackgroundModeResult,
  type BackgroundResults,
  type BackgroundSettingResult,
  backgroundResultsFile,
} from './background-results.js';
import { backgroundReadmeFigures, backgroundSectionName } from './readme-figures.js';
import {
  budgetShares,
  defaultModelCallMilliseconds,
  defaultPrepareAt,
  type Mode,
  type ReplayedTranscript,
  type ReplayRun,
  replay,
  summarizerMilliseconds,
} from './replay.js';
import { sizeTranscript, transcriptSizes, type WindowSetting, windowSettings } from './window-settings.js';

/**
 * Model calls replayed per transcript at most: 100 model calls of 2 seconds, so the run takes about 3.5 minutes
 * (both settings and both modes run at once).
 */
const maximumModelCalls = 100;
/** Transcripts with fewer model calls give no compaction to time. */
const minimumModelCalls = 10;
/** The goals: p99 at the trigger below 50 ms, retention within 1 point, the bill within 5% of in line. */
const goals = { p99Milliseconds: 50, retentionPoints: 1, billShare: 0.05 };

const counter = createTokenCounter();
/** A flag's number, or `fallback` without the flag. */
function numberFlag(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  if (at === -1) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!(value >= 0)) throw new Error(`${name} needs a number`);
  return value;
}
const modelCallMilliseconds = numberFlag('--model-call', defaultModelCallMilliseconds);
const prepareAt = numberFlag('--prepare-at', defaultPrepareAt);
// Another model call's time or `prepareAt` is an exploration: printed, not saved over the figures of record.
const exploring = modelCallMilliseconds !== defaultModelCallMilliseconds || prepareAt !== defaultPrepareAt;

/** The nearest-rank percentile of `values`, 0 when there are none. */
function percentile(values: readonly number[], share: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}

/** One transcript's run, measured: its retention and its bill. */
function measure(transcript: ReplayedTranscript, run: ReplayRun) {
  const probes = applicableProbes(extractProbes({ messages: transcript.messages }), transcript.messages);
  const retention = measureRetention(probes.applicable, run.finalContext);
  const bill = billRun(run.requests, run.summarizerCalls, counter, defaultPriceModel);
  const requestTokens = run.requests.map((request) => counter.count(request.messages));
  return { run, retention, bill, requestTokens };
}

type Measured = ReturnType<typeof measure>;

/** What one mode measured over some transcripts' runs. */
function summarize(mode: Mode, transcript: string, runs: readonly Measured[]): BackgroundModeResult {
  const sum = (pick: (measured: Measured) => number) => runs.reduce((total, run) => total + pick(run), 0);
  const atTrigger = runs.flatMap(({ run }) => run.atTrigger);
  return {
    mode,
    transcript,
    triggerCalls: atTrigger.length,
    compactions: sum(({ run }) => run.compactions),
    pending: sum(({ run }) => run.pending),
    p50Milliseconds: percentile(atTrigger, 0.5),
    p99Milliseconds: percentile(atTrigger, 0.99),
    overLimitCalls: runs.reduce((total, { run }) => total + run.overLimit.length, 0),
    overLimitP99Milliseconds: percentile(
      runs.flatMap(({ run }) => run.overLimit),
      0.99,
    ),
    underLimitP99Milliseconds: percentile(
      runs.flatMap(({ run }) => run.underLimit),
      0.99,
    ),
    underTriggerP99Milliseconds: percentile(
      runs.flatMap(({ run }) => run.underTrigger),
      0.99,
    ),
    summarizerCalls: sum(({ run }) => run.summarizerCalls.length),
    used: sum(({ run }) => run.used),
    discarded: sum(({ run }) => run.discarded),
    savedMilliseconds: sum(({ run }) => run.savedMilliseconds),
    probes: sum(({ retention }) => retention.total),
    keptProbes: sum(({ retention }) => retention.kept),
    requestsCost: sum(({ bill }) => bill.requests.cost),
    summarizerCost: sum(({ bill }) => bill.summarizer.cost),
    cost: sum(({ bill }) => bill.cost),
    inputTokens: sum(({ bill }) => bill.requests.inputTokens),
    peakRequestTokens: Math.max(0, ...runs.flatMap(({ requestTokens }) => requestTokens)),
  };
}

/** The goals, from the two modes over all transcripts. */
function check(inLine: BackgroundModeResult, background: BackgroundModeResult): BackgroundChecks {
  const share = (mode: BackgroundModeResult) => (mode.probes === 0 ? 1 : mode.keptProbes / mode.probes);
  const retentionDifferencePoints = (share(background) - share(inLine)) * 100;
  const billDifferenceShare = background.cost / inLine.cost - 1;
  return {
    p99GoalMilliseconds: goals.p99Milliseconds,
    p99Met: background.p99Milliseconds < goals.p99Milliseconds,
    underLimitP99Met: background.underLimitP99Milliseconds < goals.p99Milliseconds,
    overLimitCalls: background.overLimitCalls,
    retentionPoints: goals.retentionPoints,
    retentionDifferencePoints,
    retentionMet: Math.abs(retentionDifferencePoints) <= goals.retentionPoints,
    billShare: goals.billShare,
    billDifferenceShare,
    billMet: billDifferenceShare <= goals.billShare,
  };
}

const loaded = loadTranscripts({ sources: codingSources });
if (loaded.length === 0) {
  console.log(`bench:background skipped: ${missingTranscriptsMessage}`);
  process.exit(0);
}
const replayable = loaded
  .map((transcript) => {
    const calls = transcript.messages
      .flatMap((message, index) => (message.role === 'assistant' ? [index] : []))
      .slice(0, maximumModelCalls);
    const messages = transcript.messages.slice(0, (calls.at(-1) ?? 0) + 1);
    return { name: transcript.name, messages, calls, sizes: transcriptSizes(messages, calls, counter) };
  })
  .filter((transcript) => transcript.calls.length >= minimumModelCalls);

const modeNames = ['in line', 'background'] as const;

/** One setting replayed: each transcript sized, and those whose trigger fires replayed in both modes. */
async function replaySetting(setting: WindowSetting) {
  const entries = replayable.map((transcript) => ({ transcript, ...sizeTranscript(setting, transcript) }));
  const transcripts: ReplayedTranscript[] = entries
    .filter(({ triggerFires }) => triggerFires)
    .map(({ transcript, sized }) => ({ ...transcript, contextWindow: sized.contextWindow }));
  const replaySettings = { modelCallMilliseconds, prepareAt };
  const runs = await Promise.all(
    modeNames.map((mode) =>
      Promise.all(transcripts.map((transcript) => replay(mode, transcript, counter, replaySettings))),
    ),
  );
  return { setting, entries, transcripts, runs };
}

/** A setting's runs measured: every transcript and all of them, in each mode, and the goals. */
function measureSetting({
  setting,
  entries,
  transcripts,
  runs,
}: Awaited<ReturnType<typeof replaySetting>>): BackgroundSettingResult {
  const measured = runs.map((modeRuns) =>
    transcripts.map((transcript, position) => measure(transcript, modeRuns[position]!)),
  );
  const all = modeNames.map((mode, index) => summarize(mode, 'all', measured[index]!));
  return {
    name: setting.name,
    description: setting.description,
    transcripts: entries.filter(({ triggerFires }) => triggerFires).map(({ sized }) => sized),
    leftOut: entries.filter(({ triggerFires }) => !triggerFires).map(({ sized }) => sized),
    modes: modeNames.flatMap((mode, index) => [
      all[index]!,
      ...transcripts.map((transcript, position) =>
        summarize(mode, transcript.name, [measured[index]![position]!]),
      ),
    ]),
    checks: check(all[0]!, all[1]!),
  };
}

// Every transcript in both settings and both modes at once: the loops mostly wait on timers, so they share the
// two cores, and the run takes as long as its longest loop. Measured once every loop has ended, so the
// measuring does not hold up a loop still timing `prepare`.
const settings = (await Promise.all(windowSettings.map(replaySetting))).map(measureSetting);
const results: BackgroundResults = {
  node: process.version,
  cores: cpus().length,
  date: new Date().toISOString().slice(0, 10),
  summarizerMilliseconds,
  modelCallMilliseconds,
  ...budgetShares,
  prepareAt,
  settings,
};
const figures = backgroundReadmeFigures(results);
if (!exploring) {
  backgroundResultsFile.save(results);
  writeFileSync(
    readmePath,
    withGeneratedSection(readFileSync(readmePath, 'utf8'), backgroundSectionName, figures),
  );
}
console.log(figures);
