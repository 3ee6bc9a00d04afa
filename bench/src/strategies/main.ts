/**
 * `pnpm bench:strategies`: median time of each deterministic strategy, called directly and through
 * `Compactor.compact`, on generated coding-agent histories of about 10k, 100k, 1M and 4M tokens and on every
 * real transcript, with the token counter warm (as after `Compactor.check`) and cold (a fresh counter), side
 * by side with LangChain.js `trimMessages` and the AI SDK's `pruneMessages` where they do a comparable job.
 * Every contender's output is checked before its time counts; a refused output makes the bench exit
 * non-zero. Saves bench/results/strategies.json, writes bench/results/strategies.md and the strategy
 * figures of bench/README.md from it. `--quick`: the two smaller histories and three runs of everything,
 * printed and not saved, to try a change.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { type CompactionStrategy, createTokenCounter, type Message } from '@compaction/core';
import { createPruning } from '@compaction/strategy-pruning';
import { createSlidingWindow } from '@compaction/strategy-sliding-window';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { loadTranscripts } from '@compaction/testing/transcripts';
import { readmePath, withGeneratedSection } from '../readme/generated-section.js';
import { resultsDirectory } from '../results-file.js';
import {
  compactorPath,
  maskName,
  pruneCountingName,
  pruneMessagesName,
  type StrategyName,
  strategyNames,
  trimMessagesName,
} from './contender-names.js';
import {
  type Job,
  pruneMessagesCountingPeer,
  pruneMessagesPeer,
  strategyAlone,
  type TimedWork,
  throughCompactor,
  trimMessagesPeer,
} from './contenders.js';
import { measured, thousands } from './format.js';
import { smallestResult, smallestTrim } from './reach.js';
import { strategyReadmeFigures, strategySectionName } from './readme-figures.js';
import { strategyReport } from './report.js';
import { type HistoryResult, type StrategyResults, strategyResultsFile, type TimedGroup } from './results.js';
import { sizedCodingHistory } from './sized-history.js';
import { interleavedMedians } from './timing.js';

/** The newest tool results truncation keeps; `pruneMessages` keeps the last two messages per result. */
const keepRecent = 3;

const strategies: Record<StrategyName, CompactionStrategy> = {
  'tool-result-truncation': createToolResultTruncation({ keepRecent }),
  'tool-result-truncation (mask)': createToolResultTruncation({ keepRecent, mode: 'mask' }),
  pruning: createPruning(),
  'sliding-window': createSlidingWindow(),
};

/**
 * Token sizes of the generated histories, with the timed runs of each: fewer on the larger ones, where a
 * `trimMessages` run takes seconds, so the whole bench stays within a few minutes on two cores.
 */
const fullSizes = [
  { tokens: 10_000, runs: 15 },
  { tokens: 100_000, runs: 15 },
  { tokens: 1_000_000, runs: 9 },
  { tokens: 4_000_000, runs: 5 },
];
const quick = process.argv.includes('--quick');
const sizes = quick ? fullSizes.slice(0, 2).map((size) => ({ ...size, runs: 3 })) : fullSizes;
const transcriptRuns = quick ? 3 : 15;

/** Cold runs estimate the whole history again, so fewer of them. */
const coldRuns = (runs: number) => Math.max(5, Math.ceil(runs / 3));

const failures: string[] = [];

/** Warm and cold medians of each contender, timed in turns with the others (warm with warm, cold with cold). */
async function sideBySide(history: string, contenders: Record<string, TimedWork>, runs: number) {
  const inState = (state: 'warm' | 'cold') =>
    Object.fromEntries(Object.entries(contenders).map(([name, work]) => [name, work(state)]));
  const warm = await interleavedMedians(inState('warm'), runs);
  const cold = await interleavedMedians(inState('cold'), coldRuns(runs));
  const group: TimedGroup = {};
  for (const name of Object.keys(contenders)) {
    group[name] = { warm: warm[name]!, cold: cold[name]! };
    for (const [state, measurement] of [
      ['warm', warm[name]!],
      ['cold', cold[name]!],
    ] as const) {
      if ('problems' in measurement) {
        const line = `${name} on ${history} (${state}): ${measurement.problems.slice(0, 3).join('; ')}`;
        failures.push(line);
        console.error(`REFUSED ${line}`);
      }
    }
  }
  return group;
}

/** Everything measured on one history. */
async function measureHistory(
  name: string,
  messages: readonly Message[],
  runs: number,
  withCompactor: boolean,
): Promise<HistoryResult> {
  const tokens = createTokenCounter().count(messages);
  const half: Job = { messages, limit: tokens, target: Math.floor(tokens / 2) };
  const halfContenders: Record<string, TimedWork> = {};
  const outOfReach: Record<string, string> = {};
  for (const strategy of strategyNames) {
    const smallest = await smallestResult(strategies[strategy], messages);
    if (smallest > half.target) {
      outOfReach[strategy] = `its smallest result is ${thousands(smallest)} tokens`;
      continue;
    }
    halfContenders[strategy] = strategyAlone(strategies[strategy], half);
    if (withCompactor) halfContenders[compactorPath(strategy)] = throughCompactor(strategies[strategy], half);
  }
  const smallestTrimmed = smallestTrim(messages);
  if (smallestTrimmed > half.target) {
    outOfReach[trimMessagesName] =
      `the system prompt and everything from the newest user message on are ${thousands(smallestTrimmed)} tokens`;
  } else {
    halfContenders[trimMessagesName] = trimMessagesPeer(half);
  }

  // The job of `pruneMessages` has no token count, so its target is what masking every old result leaves.
  const masked = await strategies[maskName].compact({
    messages,
    counter: createTokenCounter(),
    budget: { limit: tokens, target: 1 },
    trigger: 'auto',
    round: 1,
  });
  const allOld: Job = { messages, limit: tokens, target: createTokenCounter().count(masked.messages) };
  const allOldContenders = {
    [maskName]: strategyAlone(strategies[maskName], allOld),
    [pruneMessagesName]: pruneMessagesPeer(allOld, 2 * keepRecent),
    [pruneCountingName]: pruneMessagesCountingPeer(allOld, 2 * keepRecent),
  };
  return {
    name,
    messages: messages.length,
    tokens,
    target: half.target,
    half: await sideBySide(name, halfContenders, runs),
    allOldTarget: allOld.target,
    allOld: await sideBySide(name, allOldContenders, runs),
    outOfReach,
  };
}

const startedAt = performance.now();
const results: StrategyResults = {
  node: process.version,
  cores: cpus().length,
  loadAverage: loadavg()[0]!,
  date: new Date().toISOString().slice(0, 10),
  sizes: [],
  transcripts: null,
  failures,
};
for (const size of sizes) {
  const messages = sizedCodingHistory(size.tokens);
  const result = await measureHistory(`generated ${size.tokens} tokens`, messages, size.runs, true);
  results.sizes.push(result);
  console.log(
    `${result.tokens} tokens, ${result.messages} messages: pruning ${measured(result.half.pruning?.warm)} ms ` +
      `warm, Compactor ${measured(result.half[compactorPath('pruning')]?.warm)}, ` +
      `trimMessages ${measured(result.half[trimMessagesName]?.warm)}`,
  );
}
const transcripts = loadTranscripts();
if (transcripts.length > 0) {
  results.transcripts = [];
  for (const transcript of transcripts) {
    results.transcripts.push(
      await measureHistory(transcript.name, transcript.messages, transcriptRuns, false),
    );
  }
}

const report = strategyReport(results);
if (!quick) {
  strategyResultsFile.save(results);
  writeFileSync(resolve(resultsDirectory, 'strategies.md'), report);
  writeFileSync(
    readmePath,
    withGeneratedSection(
      readFileSync(readmePath, 'utf8'),
      strategySectionName,
      strategyReadmeFigures(results),
    ),
  );
}
console.log(report);
console.log(`Took ${((performance.now() - startedAt) / 1000).toFixed(0)} s.`);
if (failures.length > 0) {
  console.error(`${failures.length} contender outputs were refused; their times do not count:`);
  for (const failure of failures) console.error(`  ${failure}`);
  process.exitCode = 1;
}
