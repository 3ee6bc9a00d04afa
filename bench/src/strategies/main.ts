/**
 * `pnpm bench:strategies`: median time of each deterministic strategy on a generated 2,000-message,
 * ~1M-token coding-agent history and on every real transcript, with the token counter warm (as after
 * `Compactor.check`) and cold (a fresh counter), side by side with LangChain.js `trimMessages` and the AI
 * SDK's `pruneMessages` where they do a comparable job. Each comparison times ours and the peer in turns, run
 * by run, so a ratio compares them in the same process state. Prints one Markdown report and writes it to
 * bench/results/strategies.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { type CompactionStrategy, createFastEstimator, type Message, TokenCounter } from '@compaction/core';
import { createPruning } from '@compaction/strategy-pruning';
import { createSlidingWindow } from '@compaction/strategy-sliding-window';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { generateCodingHistory } from '@compaction/testing';
import { loadTranscripts, missingTranscriptsMessage } from '@compaction/testing/transcripts';
import {
  countModelMessageTexts,
  pruneWithAiSdk,
  toLangChain,
  toModelMessages,
  trimWithLangChain,
} from './peers.js';
import { type Contender, interleavedMedians, warmUpMilliseconds, warmUpRounds } from './timing.js';

/** The newest tool results truncation keeps; `pruneMessages` keeps the last two messages per result. */
const keepRecent = 3;

const strategies: Record<string, CompactionStrategy> = {
  'tool-result-truncation': createToolResultTruncation({ keepRecent }),
  'tool-result-truncation (mask)': createToolResultTruncation({ keepRecent, mode: 'mask' }),
  pruning: createPruning(),
  'sliding-window': createSlidingWindow(),
};
const mask = strategies['tool-result-truncation (mask)']!;

interface Timing {
  warm: number;
  cold: number;
}

/**
 * The contender for one counter state. Warm: a counter that has already counted the history, shared by every
 * run. Cold: a fresh counter per run, made untimed. Peers that count nothing run the same way in both.
 */
type TimedWork = (state: keyof Timing) => Contender;

/** Cold runs estimate the whole history again, so fewer of them. */
const coldRuns = (runs: number) => Math.max(5, Math.ceil(runs / 3));

/**
 * Warm and cold medians of each contender, timed in turns with the others (warm with warm, cold with cold),
 * so every ratio between them compares runs taken side by side.
 */
async function sideBySide<Name extends string>(
  contenders: Record<Name, TimedWork>,
  runs: number,
): Promise<Record<Name, Timing>> {
  const names = Object.keys(contenders) as Name[];
  const inState = (state: keyof Timing) =>
    Object.fromEntries(names.map((name) => [name, contenders[name](state)])) as Record<Name, Contender>;
  const warm = await interleavedMedians(inState('warm'), runs);
  const cold = await interleavedMedians(inState('cold'), coldRuns(runs));
  return Object.fromEntries(names.map((name) => [name, { warm: warm[name], cold: cold[name] }])) as Record<
    Name,
    Timing
  >;
}

/** Makes the counter of each run in the given state: the warm one, shared, has counted `messages` already. */
function counterFor(state: keyof Timing, messages: readonly Message[]): () => TokenCounter {
  if (state === 'cold') return () => new TokenCounter();
  const warmCounter = new TokenCounter();
  warmCounter.count(messages);
  return () => warmCounter;
}

function ourStrategy(
  strategy: CompactionStrategy,
  messages: readonly Message[],
  budget: { limit: number; target: number },
): TimedWork {
  return (state) => {
    const nextCounter = counterFor(state, messages);
    return () => {
      const counter = nextCounter();
      return () => strategy.compact({ messages, counter, budget, trigger: 'auto', round: 1 });
    };
  };
}

function trimMessagesPeer(messages: readonly Message[], maxTokens: number): TimedWork {
  const history = toLangChain(messages);
  return (state) => {
    const nextCounter = counterFor(state, messages);
    return () => {
      const counter = nextCounter();
      return () => trimWithLangChain(history, counter, maxTokens);
    };
  };
}

function pruneMessagesPeer(messages: readonly Message[]): TimedWork {
  const modelMessages = toModelMessages(messages);
  return () => () => () => pruneWithAiSdk(modelMessages, 2 * keepRecent);
}

/**
 * `pruneMessages` then counting the texts it kept with a fresh fast estimator: our strategies count their own
 * output so they can stop at a target, and `pruneMessages` counts nothing, so this row puts that work on both
 * sides.
 */
function pruneMessagesCountingPeer(messages: readonly Message[]): TimedWork {
  const modelMessages = toModelMessages(messages);
  return () => () => {
    const estimator = createFastEstimator();
    return () => countModelMessageTexts(pruneWithAiSdk(modelMessages, 2 * keepRecent), estimator);
  };
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
    'counter. Each comparison is timed **interleaved**: ours and its peers run in turns, every other round in reverse order (ours, peer, peer, ' +
    `ours...), after the same untimed warm-up rounds (at least ${warmUpRounds}, and at least ` +
    `${warmUpMilliseconds} ms), warm runs beside warm runs and cold beside cold, and the medians of each are ` +
    'compared, so both sides are measured in the same heap, JIT and machine state. A peer that counts nothing ' +
    '(`pruneMessages`) runs the same way in both columns, so its warm and cold medians differ only by the runs ' +
    'they were interleaved with. Ratio: ours ÷ peer (below 1× means faster). `pruneMessages + counting its ' +
    'output` adds counting every text it kept with a fresh fast estimator, because our strategies count their ' +
    'own output to stop at a target while `pruneMessages` counts nothing; with no memoized counter it counts ' +
    'all it kept from scratch, while our warm runs count only the messages they change. Both ratios are shown. ' +
    `Node ${process.version}, ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)} at the ` +
    `start, ${new Date().toISOString().slice(0, 10)}.`,
);
print();
print(`## Generated coding history: ${history.length} messages, ${thousands(total)} tokens`);
print();
print(
  '| target | strategy | warm ms | cold ms | peer | peer warm ms | peer cold ms | ratio warm | ratio cold |',
);
print('|---|---|--:|--:|---|--:|--:|--:|--:|');
const largeRuns = 15;
const row = (label: string, name: string, ours: Timing, peer?: { name: string; timing: Timing }) =>
  `| ${label} | ${name} | ${milliseconds(ours.warm)} | ${milliseconds(ours.cold)} | ` +
  (peer === undefined
    ? '— | | | | |'
    : `${peer.name} | ${milliseconds(peer.timing.warm)} | ${milliseconds(peer.timing.cold)} | ` +
      `${ratio(ours.warm, peer.timing.warm)} | ${ratio(ours.cold, peer.timing.cold)} |`);
for (const share of [0.5, 0.1]) {
  const target = Math.floor(total * share);
  const budget = { limit: total, target };
  const label = `${share * 100}% (${thousands(target)})`;
  const trim = trimMessagesPeer(history, target);
  for (const [name, strategy] of Object.entries(strategies)) {
    // Truncation keeps every message; 10% of this history is out of its reach (that is a pipeline's job).
    if (share < 0.5 && name.startsWith('tool-result-truncation')) continue;
    const ours = ourStrategy(strategy, history, budget);
    if (name === 'pruning' || name === 'sliding-window') {
      const timings = await sideBySide({ ours, trim }, largeRuns);
      print(row(label, name, timings.ours, { name: 'trimMessages', timing: timings.trim }));
    } else {
      const timings = await sideBySide({ ours }, largeRuns);
      print(row(label, name, timings.ours));
    }
  }
}
{
  // Every old tool result removed: what pruneMessages does, with no token budget.
  const timings = await sideBySide(
    {
      ours: ourStrategy(mask, history, { limit: total, target: 1 }),
      prune: pruneMessagesPeer(history),
      pruneCounting: pruneMessagesCountingPeer(history),
    },
    largeRuns,
  );
  const label = 'all old results';
  const name = 'tool-result-truncation (mask)';
  print(row(label, name, timings.ours, { name: 'pruneMessages', timing: timings.prune }));
  print(
    row(label, name, timings.ours, {
      name: 'pruneMessages + counting its output',
      timing: timings.pruneCounting,
    }),
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
    'Warm medians in milliseconds (cold in parentheses), ratios likewise. `trimMessages` is the peer of pruning ' +
      'and sliding-window, timed in turns with the four strategies; `pruneMessages` alone and followed by ' +
      'counting its output (`prune + count`) are the peers of masking every old result (target 1 token), timed ' +
      'in turns with it.',
  );
  print();
  print(
    '| transcript | messages | tokens | truncation | mask | pruning | sliding-window | trimMessages | ' +
      'sliding ÷ trim | mask all old | pruneMessages | mask ÷ prune | prune + count | mask ÷ (prune + count) |',
  );
  print('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
  const runs = 15;
  const cell = (timing: Timing) => `${milliseconds(timing.warm)} (${milliseconds(timing.cold)})`;
  const ratios = (ours: Timing, peer: Timing) =>
    `${ratio(ours.warm, peer.warm)} (${ratio(ours.cold, peer.cold)})`;
  for (const transcript of transcripts) {
    const messages = transcript.messages;
    const size = new TokenCounter().count(messages);
    const budget = { limit: size, target: Math.floor(size / 2) };
    const half = await sideBySide(
      {
        truncation: ourStrategy(strategies['tool-result-truncation']!, messages, budget),
        mask: ourStrategy(mask, messages, budget),
        pruning: ourStrategy(strategies.pruning!, messages, budget),
        sliding: ourStrategy(strategies['sliding-window']!, messages, budget),
        trim: trimMessagesPeer(messages, budget.target),
      },
      runs,
    );
    const all = await sideBySide(
      {
        mask: ourStrategy(mask, messages, { limit: size, target: 1 }),
        prune: pruneMessagesPeer(messages),
        pruneCounting: pruneMessagesCountingPeer(messages),
      },
      runs,
    );
    print(
      `| ${transcript.name} | ${messages.length} | ${thousands(size)} | ${cell(half.truncation)} | ${cell(half.mask)} | ` +
        `${cell(half.pruning)} | ${cell(half.sliding)} | ${cell(half.trim)} | ${ratios(half.sliding, half.trim)} | ` +
        `${cell(all.mask)} | ${cell(all.prune)} | ${ratios(all.mask, all.prune)} | ${cell(all.pruneCounting)} | ` +
        `${ratios(all.mask, all.pruneCounting)} |`,
    );
  }
}

const resultsDirectory = resolve(import.meta.dirname, '../../results');
mkdirSync(resultsDirectory, { recursive: true });
writeFileSync(resolve(resultsDirectory, 'strategies.md'), `${lines.join('\n')}\n`);
