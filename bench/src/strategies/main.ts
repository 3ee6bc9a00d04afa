/**
 * `pnpm bench:strategies`: median time of each deterministic strategy on a generated 2,000-message,
 * ~1M-token coding-agent history and on every real transcript, with the token counter warm (as after
 * `Compactor.check`) and cold (a fresh counter), side by side with LangChain.js `trimMessages` and the AI
 * SDK's `pruneMessages` where they do a comparable job. Prints one Markdown report and writes it to
 * bench/results/strategies.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { type CompactionStrategy, type Message, TokenCounter } from '@compaction/core';
import { createPruning } from '@compaction/strategy-pruning';
import { createSlidingWindow } from '@compaction/strategy-sliding-window';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { generateCodingHistory } from '@compaction/testing';
import { loadTranscripts, missingTranscriptsMessage } from '@compaction/testing/transcripts';
import { pruneWithAiSdk, toLangChain, toModelMessages, trimWithLangChain } from './peers.js';
import { medianMilliseconds } from './timing.js';

/** The newest tool results truncation keeps; `pruneMessages` keeps the last two messages per result. */
const keepRecent = 3;

const strategies: Record<string, CompactionStrategy> = {
  'tool-result-truncation': createToolResultTruncation({ keepRecent }),
  'tool-result-truncation (mask)': createToolResultTruncation({ keepRecent, mode: 'mask' }),
  pruning: createPruning(),
  'sliding-window': createSlidingWindow(),
};

interface Timing {
  warm: number;
  cold: number;
}

async function timeStrategy(
  strategy: CompactionStrategy,
  messages: readonly Message[],
  budget: { limit: number; target: number },
  runs: number,
): Promise<Timing> {
  const compact = (counter: TokenCounter) =>
    strategy.compact({ messages, counter, budget, trigger: 'auto', round: 1 });
  const warmCounter = new TokenCounter();
  warmCounter.count(messages);
  return {
    warm: await medianMilliseconds(runs, () => warmCounter, compact),
    cold: await medianMilliseconds(coldRuns(runs), () => new TokenCounter(), compact),
  };
}

/** Cold runs estimate the whole history again, so fewer of them. */
const coldRuns = (runs: number) => Math.max(5, Math.ceil(runs / 3));

async function timeTrim(messages: readonly Message[], maxTokens: number, runs: number): Promise<Timing> {
  const history = toLangChain(messages);
  const warmCounter = new TokenCounter();
  warmCounter.count(messages);
  const trim = (counter: TokenCounter) => trimWithLangChain(history, counter, maxTokens);
  return {
    warm: await medianMilliseconds(runs, () => warmCounter, trim),
    cold: await medianMilliseconds(coldRuns(runs), () => new TokenCounter(), trim),
  };
}

async function timePrune(messages: readonly Message[], runs: number): Promise<number> {
  const modelMessages = toModelMessages(messages);
  return medianMilliseconds(
    runs,
    () => modelMessages,
    (prepared) => pruneWithAiSdk(prepared, 2 * keepRecent),
  );
}

const milliseconds = (value: number) =>
  value >= 100 ? value.toFixed(0) : value >= 1 ? value.toFixed(2) : value.toFixed(3);
const ratio = (ours: number, peer: number) => `${(ours / peer).toFixed(2)}×`;
const thousands = (value: number) => Math.round(value).toLocaleString('en-US');

const lines: string[] = [];
const print = (line = '') => {
  lines.push(line);
  console.log(line);
};

// The generated history.
const history = generateCodingHistory({ messages: 2000 });
const total = new TokenCounter().count(history);
print('# Strategy benchmark');
print();
print(
  `Median milliseconds per compaction. **Warm**: the shared counter has already counted the history, as ` +
    '`Compactor.check` does before every compaction in an agent loop. **Cold**: a fresh counter, so the run also ' +
    'estimates every message. Peers get the same histories converted once, untimed, to their own types; ' +
    '`trimMessages` (`strategy: "last"`, `includeSystem`, `startOn: "human"`) counts with the same memoized ' +
    'counter. Ratio: ours ÷ peer (below 1× means faster). Three untimed warm-up runs precede the timed ones. Node ' +
    `${process.version}, ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)} at the start, ` +
    `${new Date().toISOString().slice(0, 10)}.`,
);
print();
print(`## Generated coding history: ${history.length} messages, ${thousands(total)} tokens`);
print();
print(
  '| target | strategy | warm ms | cold ms | peer | peer warm ms | peer cold ms | ratio warm | ratio cold |',
);
print('|---|---|--:|--:|---|--:|--:|--:|--:|');
const largeRuns = 15;
for (const share of [0.5, 0.1]) {
  const target = Math.floor(total * share);
  const budget = { limit: total, target };
  const trim = await timeTrim(history, target, 7);
  for (const [name, strategy] of Object.entries(strategies)) {
    // Truncation keeps every message; 10% of this history is out of its reach (that is a pipeline's job).
    if (share < 0.5 && name.startsWith('tool-result-truncation')) continue;
    const ours = await timeStrategy(strategy, history, budget, largeRuns);
    const windowed = name === 'pruning' || name === 'sliding-window';
    print(
      `| ${share * 100}% (${thousands(target)}) | ${name} | ${milliseconds(ours.warm)} | ${milliseconds(ours.cold)} | ` +
        (windowed
          ? `trimMessages | ${milliseconds(trim.warm)} | ${milliseconds(trim.cold)} | ${ratio(ours.warm, trim.warm)} | ${ratio(ours.cold, trim.cold)} |`
          : '— | | | | |'),
    );
  }
}
{
  // Every old tool result removed: what pruneMessages does, with no token budget.
  const budget = { limit: total, target: 1 };
  const ours = await timeStrategy(strategies['tool-result-truncation (mask)']!, history, budget, largeRuns);
  const prune = await timePrune(history, largeRuns);
  print(
    `| all old results | tool-result-truncation (mask) | ${milliseconds(ours.warm)} | ${milliseconds(ours.cold)} | ` +
      `pruneMessages | ${milliseconds(prune)} | ${milliseconds(prune)} | ${ratio(ours.warm, prune)} | ${ratio(ours.cold, prune)} |`,
  );
}

// The real transcripts.
const transcripts = loadTranscripts();
print();
print('## Real transcripts, target 50% of each');
print();
if (transcripts.length === 0) {
  print(`Skipped: ${missingTranscriptsMessage}.`);
} else {
  print(
    'Warm medians in milliseconds (cold in parentheses). `trimMessages` is the peer of pruning and ' +
      'sliding-window; `pruneMessages` is the peer of masking every old result (target 1 token).',
  );
  print();
  print(
    '| transcript | messages | tokens | truncation | mask | pruning | sliding-window | trimMessages | ' +
      'sliding ÷ trim | mask all old | pruneMessages | mask ÷ prune |',
  );
  print('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
  const runs = 15;
  for (const transcript of transcripts) {
    const messages = transcript.messages;
    const size = new TokenCounter().count(messages);
    const budget = { limit: size, target: Math.floor(size / 2) };
    const cell = (timing: Timing) => `${milliseconds(timing.warm)} (${milliseconds(timing.cold)})`;
    const timings: Timing[] = [];
    for (const strategy of Object.values(strategies)) {
      timings.push(await timeStrategy(strategy, messages, budget, runs));
    }
    const trim = await timeTrim(messages, budget.target, runs);
    const maskAll = await timeStrategy(
      strategies['tool-result-truncation (mask)']!,
      messages,
      { limit: size, target: 1 },
      runs,
    );
    const prune = await timePrune(messages, runs);
    print(
      `| ${transcript.name} | ${messages.length} | ${thousands(size)} | ${timings.map(cell).join(' | ')} | ${cell(trim)} | ` +
        `${ratio(timings[3]!.warm, trim.warm)} | ${cell(maskAll)} | ${milliseconds(prune)} | ${ratio(maskAll.warm, prune)} |`,
    );
  }
}

const resultsDirectory = resolve(import.meta.dirname, '../../results');
mkdirSync(resultsDirectory, { recursive: true });
writeFileSync(resolve(resultsDirectory, 'strategies.md'), `${lines.join('\n')}\n`);
