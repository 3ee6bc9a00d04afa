import { createPipeline, createTokenCounter, type Message } from '@compaction/core';
import { createCacheAwareTrigger } from '@compaction/strategy-kit';
import { createSummarization } from '@compaction/strategy-summarization';
import { capToolResults, createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import {
  defaultBudget,
  earlyBudget,
  type Policy,
  truncationThenSummarization,
  withSummarizer,
} from './policies.js';

/** Tool results over this many tokens are cut when they arrive (caps at ingestion). */
export const ingestionCapTokens = 1000;

/**
 * The `compactionCost` given to the cache-aware trigger: the summarizer reads what it replaces at the full
 * input price, about one input price per token removed.
 */
export const summarizerCost = 1;

/** What the deep variant clears to, against the trigger's default 0.25: where the bill falls and so does retention. */
export const deepClearTo = 0.1;

/** Anthropic's server-side compaction fires at 150,000 input tokens by default: 0.825 of a 200k window's limit. */
export const serverCompactionTriggerShare = 0.825;

function capAtIngestion(): (message: Message) => Message {
  const counter = createTokenCounter();
  return (message) =>
    capToolResults([message], { maxResultTokens: ingestionCapTokens, counter }).messages[0] ?? message;
}

function cacheAware(now: () => number) {
  return createCacheAwareTrigger({ now, compactionCost: summarizerCost });
}

const summarized = withSummarizer(truncationThenSummarization);
const maskedThenSummarized = withSummarizer((provider) =>
  createPipeline([createToolResultTruncation({ mode: 'mask' }), createSummarization({ provider })]),
);

/**
 * The cost levers on the best pipeline (truncation → summarization), each alone and together, and the
 * native compaction emulated as a reference.
 */
export const costPolicies: readonly Policy[] = [
  {
    id: 'cache-aware',
    name: 'truncation → summarization* (cache-aware)',
    kind: 'pipeline',
    description: `the pipeline with the \`cache-aware\` trigger (Anthropic 5-minute cache, clear to 0.25 of the limit, compaction cost ${summarizerCost}); the token trigger stays the ceiling`,
    summarizes: true,
    budget: defaultBudget,
    create: (counter) => ({ ...summarized(counter), triggerPolicy: cacheAware }),
  },
  {
    id: 'caps',
    name: 'truncation → summarization* (early, caps)',
    kind: 'pipeline',
    description: `the early pipeline, tool results over ${ingestionCapTokens} tokens cut when they arrive (\`capToolResults\`)`,
    summarizes: true,
    budget: (contextWindow) => ({ contextWindow, ...earlyBudget }),
    create: (counter) => ({ ...summarized(counter), ingest: capAtIngestion() }),
  },
  {
    id: 'caps+cache-aware',
    name: 'truncation → summarization* (cache-aware, caps)',
    kind: 'pipeline',
    description: 'both levers: caps at ingestion and the cache-aware trigger',
    summarizes: true,
    budget: defaultBudget,
    create: (counter) => ({ ...summarized(counter), triggerPolicy: cacheAware, ingest: capAtIngestion() }),
  },
  {
    id: 'mask+summary-cost',
    name: 'mask → summarization* (cache-aware, caps)',
    kind: 'pipeline',
    description:
      'both levers on a pipeline that masks old tool results first (cheap: no summarizer call when it is enough)',
    summarizes: true,
    budget: defaultBudget,
    create: (counter) => ({
      ...maskedThenSummarized(counter),
      triggerPolicy: cacheAware,
      ingest: capAtIngestion(),
    }),
  },
  {
    id: 'deep',
    name: 'mask → summarization* (cache-aware, caps, deep)',
    kind: 'pipeline',
    description: `the same, clearing to ${deepClearTo} of the limit: fewer tokens per call, more of the old turns summarized away`,
    summarizes: true,
    budget: defaultBudget,
    create: (counter) => ({
      ...maskedThenSummarized(counter),
      triggerPolicy: (now) =>
        createCacheAwareTrigger({ now, compactionCost: summarizerCost, clearTo: deepClearTo }),
      ingest: capAtIngestion(),
    }),
  },
  {
    id: 'server-compaction',
    name: 'ref: server-side compaction (scaled)*',
    kind: 'reference',
    description:
      'Anthropic `compact_20260112` and OpenAI Responses compaction as documented: at the threshold (150k of a 200k window, scaled) everything before the newest turn becomes one summary; emulated by summarization keeping one recent turn',
    summarizes: true,
    budget: (contextWindow) => ({ contextWindow, trigger: serverCompactionTriggerShare, target: 0.1 }),
    create: withSummarizer((provider) =>
      createSummarization({ provider, minimumRecentTurns: 1, recentShare: 0.05 }),
    ),
  },
];
