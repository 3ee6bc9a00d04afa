/**
 * `pnpm bench:background`: how long `prepare` blocks when the trigger fires, with compaction in line and with
 * `background` (compaction started at `prepareAt`, off the critical path), side by side in one run. A scripted
 * summarizer answers after 2 seconds (a timer in the process, not a loopback HTTP server: the wait is what
 * matters, not the wire); each replayed model call takes a simulated 500 ms. The agent loop replays the shared
 * coding transcripts, sending what `prepare` returns plus the turns the transcript recorded after it. Saves
 * bench/results/background.json and writes the background figures of bench/README.md from it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import {
  type Compactor,
  createCompactor,
  type GenerateResult,
  type Message,
  type Provider,
} from '@compaction/core';
import { createSummarization } from '@compaction/strategy-summarization';
import { createMockProvider } from '@compaction/testing';
import { codingSources, loadTranscripts, missingTranscriptsMessage } from '@compaction/testing/transcripts';
import { scriptedSummary } from '../evaluation/scripted-summarizer.js';
import { readmePath, withGeneratedSection } from '../readme/generated-section.js';
import {
  type BackgroundModeResult,
  type BackgroundResults,
  backgroundResultsFile,
} from './background-results.js';
import { backgroundReadmeFigures, backgroundSectionName } from './readme-figures.js';

const summarizerMilliseconds = 2000;
const modelCallMilliseconds = 500;
/** Model calls replayed per transcript at most: the run stays near a minute (both modes run at once). */
const maximumModelCalls = 100;
/** Transcripts with fewer model calls give no compaction to time. */
const minimumModelCalls = 10;
const budgetShares = { trigger: 0.85, target: 0.4 };
const prepareAt = 0.6;

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** A summarizer that waits, then answers with the scripted summary; it counts its calls. */
function slowSummarizer(calls: { count: number }): Provider {
  const provider = createMockProvider({ name: 'slow-scripted-summarizer', responses: [] });
  const generate = async (): Promise<GenerateResult> => {
    calls.count++;
    await sleep(summarizerMilliseconds);
    return { text: scriptedSummary, finishReason: 'stop' };
  };
  return { ...provider, generate };
}

/** Indexes of the assistant messages: a model call produced each, so `prepare` runs before each. */
function modelCallIndexes(messages: readonly Message[]): number[] {
  return messages.flatMap((message, index) => (message.role === 'assistant' ? [index] : []));
}

/** One agent loop over a transcript: `prepare`, a model call, the recorded turn appended; times each prepare. */
async function replay(compactor: Compactor, messages: readonly Message[], calls: readonly number[]) {
  const atTrigger: number[] = [];
  const underTrigger: number[] = [];
  let history: Message[] = messages.slice(0, calls[0]);
  for (const [turn, index] of calls.entries()) {
    const started = performance.now();
    const result = await compactor.prepare(history);
    const blocked = performance.now() - started;
    (result.compacted ? atTrigger : underTrigger).push(blocked);
    await sleep(modelCallMilliseconds);
    const next = calls[turn + 1] ?? messages.length;
    history = [...result.messages, ...messages.slice(index, next)];
  }
  return { atTrigger, underTrigger };
}

/** The nearest-rank percentile of `values`, 0 when there are none. */
function percentile(values: readonly number[], share: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}

/** What one mode measured over some transcripts' runs. */
function summarize(
  mode: BackgroundModeResult['mode'],
  transcript: string,
  runs: readonly Awaited<ReturnType<typeof replayWithEvents>>[],
): BackgroundModeResult {
  const atTrigger = runs.flatMap((run) => run.atTrigger);
  const sum = (pick: (run: (typeof runs)[number]) => number) =>
    runs.reduce((total, run) => total + pick(run), 0);
  return {
    mode,
    transcript,
    compactions: atTrigger.length,
    p50Milliseconds: percentile(atTrigger, 0.5),
    p99Milliseconds: percentile(atTrigger, 0.99),
    underTriggerP99Milliseconds: percentile(
      runs.flatMap((run) => run.underTrigger),
      0.99,
    ),
    summarizerCalls: sum((run) => run.summarizerCalls),
    used: sum((run) => run.used),
    discarded: sum((run) => run.discarded),
    savedMilliseconds: sum((run) => run.saved),
  };
}

/** One transcript's loop in one mode, with the summarizer's calls and the `background` events counted. */
async function replayWithEvents(
  mode: BackgroundModeResult['mode'],
  { messages, calls, contextWindow }: { messages: Message[]; calls: number[]; contextWindow: number },
) {
  const counts = { summarizerCalls: 0, used: 0, discarded: 0, saved: 0 };
  const summarizer = { count: 0 };
  const compactor = createCompactor({
    strategy: createSummarization({ provider: slowSummarizer(summarizer) }),
    budget: { contextWindow, reservedOutputTokens: 0, safetyMargin: 0, ...budgetShares },
    ...(mode === 'background' ? { background: { prepareAt } } : {}),
  });
  compactor.on('background', (event) => {
    if (event.status === 'used') {
      counts.used++;
      counts.saved += event.savedMs;
    }
    if (event.status === 'discarded') counts.discarded++;
  });
  const timings = await replay(compactor, messages, calls);
  return { ...timings, ...counts, summarizerCalls: summarizer.count };
}

const loaded = loadTranscripts({ sources: codingSources });
if (loaded.length === 0) {
  console.log(`bench:background skipped: ${missingTranscriptsMessage}`);
  process.exit(0);
}
const counter = createCompactor({
  strategy: createSummarization({ maxOutputTokens: 0 }),
  budget: { contextWindow: 1e9 },
}).counter;
const transcripts = loaded
  .map((transcript) => {
    const calls = modelCallIndexes(transcript.messages).slice(0, maximumModelCalls);
    const replayed = transcript.messages.slice(0, (calls.at(-1) ?? 0) + 1);
    // A window a third of the replayed history: the trigger fires a few times in each.
    const contextWindow = Math.ceil(counter.count(replayed) / 3);
    return { name: transcript.name, messages: replayed, calls, contextWindow };
  })
  .filter((transcript) => transcript.calls.length >= minimumModelCalls);

const modeNames = ['in line', 'background'] as const;
// Every transcript in both modes at once: the loops mostly wait on timers, so they share the two cores.
const runs = await Promise.all(
  modeNames.map((mode) => Promise.all(transcripts.map((transcript) => replayWithEvents(mode, transcript)))),
);
const modes = modeNames.flatMap((mode, index) => [
  summarize(mode, 'all', runs[index]!),
  ...transcripts.map((transcript, position) => summarize(mode, transcript.name, [runs[index]![position]!])),
]);
const results: BackgroundResults = {
  node: process.version,
  cores: cpus().length,
  date: new Date().toISOString().slice(0, 10),
  summarizerMilliseconds,
  modelCallMilliseconds,
  transcripts: transcripts.map(({ name, calls, contextWindow }) => ({
    name,
    modelCalls: calls.length,
    contextWindow,
  })),
  ...budgetShares,
  prepareAt,
  modes,
};
backgroundResultsFile.save(results);
const figures = backgroundReadmeFigures(results);
writeFileSync(
  readmePath,
  withGeneratedSection(readFileSync(readmePath, 'utf8'), backgroundSectionName, figures),
);
console.log(figures);
