import { createPipeline } from '@compaction/core';
import { createCacheAwareTrigger } from '@compaction/strategy-kit';
import { createSummarization } from '@compaction/strategy-summarization';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import {
  defaultBudget,
  earlyBudget,
  type Policy,
  truncationThenSummarization,
  withSummarizer,
} from './policies.js';
import {
  capAtIngestion,
  continuationSummarizerCost,
  type FamilyMember,
  familyPolicy,
  summarizerCost,
} from './policy-family.js';

/** Tool results over this many tokens are cut when they arrive (caps at ingestion). */
export const ingestionCapTokens = 1000;

/** What the deep variant clears to, against the trigger's default 0.25: where the bill falls and so does retention. */
export const deepClearTo = 0.1;

/** Anthropic's server-side compaction fires at 150,000 input tokens by default: 0.825 of a 200k window's limit. */
export const serverCompactionTriggerShare = 0.825;

/**
 * What the trail policies clear to, in tokens rather than a share of the limit: a compaction must keep the
 * task and the artifact trail (about 3,500 tokens at the end of the longest coding run) whatever the window.
 */
export const trailClearToTokens = 4000;

/** The trail policies' `recentShare` (default 0.3): the room goes to the trail before verbatim recent turns. */
export const trailRecentShare = 0.05;

/**
 * A member of the explored family (`pnpm evaluate:explore`, results/evaluation-explore.md) chosen by hand near
 * its frontier, keeping at least 90% of the probes on the verdict's runs: no summarizer call, so the summary is
 * the artifact trail alone, built without a model; the truncation's defaults and the caps of the other levers;
 * clearing to a token count, which holds across windows where a share of the limit folds the trail at 16k.
 */
export const trailMember: FamilyMember = {
  mode: 'truncate',
  capTokens: ingestionCapTokens,
  trigger: 'cache-aware',
  clearTo: trailClearToTokens,
  summarizer: 'none',
  recentShare: trailRecentShare,
  placement: 'user-before-task',
};

/**
 * A member of the explored family that calls the summarizer and kept at least 90% when it was chosen (the
 * summary before the task); its row shows what it keeps now.
 */
export const summarizingMember: FamilyMember = {
  mode: 'mask',
  capTokens: 500,
  trigger: 'cache-aware',
  clearTo: trailClearToTokens,
  summarizer: 'transcript',
  recentShare: trailRecentShare,
  placement: 'user-before-task',
};

/**
 * The cheapest member of the explored family at 90% or more that asks the summarizer in the conversation
 * (`summarizerRequest: 'continuation'`) with the summary before the task (after it, see
 * `continuation-after-task`): summarization alone, since a truncation stage before it rewrites messages the
 * summarizer would otherwise read from the cache.
 */
export const continuationMember: FamilyMember = {
  mode: 'none',
  capTokens: ingestionCapTokens,
  trigger: 'cache-aware',
  clearTo: 0.18,
  summarizer: 'continuation',
  recentShare: trailRecentShare,
  placement: 'user-before-task',
};

const trailClearTo = trailClearToTokens.toLocaleString('en-US');

/** What the rows "after the task" change from the member before them. */
const afterTaskDescription =
  "the same member with the summary placed after the original task (`placement: 'assistant-after-task'`): a " +
  'compaction leaves the system prompt and the task in place, so the call after it reads them from the cache ' +
  'instead of writing them again';

function cacheAware(now: () => number) {
  return createCacheAwareTrigger({ now, compactionCost: summarizerCost });
}

const summarized = withSummarizer(truncationThenSummarization);
const maskedThenSummarized = withSummarizer((provider) =>
  createPipeline([createToolResultTruncation({ mode: 'mask' }), createSummarization({ provider })]),
);
const maskedThenContinued = withSummarizer((provider) =>
  createPipeline([
    createToolResultTruncation({ mode: 'mask' }),
    createSummarization({ provider, summarizerRequest: 'continuation' }),
  ]),
);
const continued = withSummarizer((provider) =>
  createSummarization({ provider, summarizerRequest: 'continuation' }),
);

function continuationCacheAware(now: () => number) {
  return createCacheAwareTrigger({ now, compactionCost: continuationSummarizerCost });
}

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
    create: (counter) => ({ ...summarized(counter), ingest: capAtIngestion(ingestionCapTokens) }),
  },
  {
    id: 'caps+cache-aware',
    name: 'truncation → summarization* (cache-aware, caps)',
    kind: 'pipeline',
    description: 'both levers: caps at ingestion and the cache-aware trigger',
    summarizes: true,
    budget: defaultBudget,
    create: (counter) => ({
      ...summarized(counter),
      triggerPolicy: cacheAware,
      ingest: capAtIngestion(ingestionCapTokens),
    }),
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
      ingest: capAtIngestion(ingestionCapTokens),
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
      ingest: capAtIngestion(ingestionCapTokens),
    }),
  },
  {
    id: 'mask+continuation',
    name: 'mask → summarization* in the conversation (cache-aware, caps)',
    kind: 'pipeline',
    description:
      `the same with \`summarizerRequest: 'continuation'\`: the summarizer is sent the conversation as the model was, ` +
      'and one more user message asking for the summary; the trigger takes its calls to cost the cache read price ' +
      `(compaction cost ${continuationSummarizerCost}). The masking stage runs first and rewrites the results it masks, ` +
      'so the cache serves the conversation only up to the first of them',
    summarizes: true,
    budget: defaultBudget,
    create: (counter) => ({
      ...maskedThenContinued(counter),
      triggerPolicy: continuationCacheAware,
      ingest: capAtIngestion(ingestionCapTokens),
    }),
  },
  {
    id: 'continuation',
    name: 'summarization* in the conversation (cache-aware, caps)',
    kind: 'pipeline',
    description:
      "summarization alone with `summarizerRequest: 'continuation'`, caps at ingestion and the cache-aware trigger " +
      `(compaction cost ${continuationSummarizerCost}, the cache read price): no stage rewrites the conversation before ` +
      'the summarizer reads it, so the cache serves all that the last call sent',
    summarizes: true,
    budget: defaultBudget,
    create: (counter) => ({
      ...continued(counter),
      triggerPolicy: continuationCacheAware,
      ingest: capAtIngestion(ingestionCapTokens),
    }),
  },
  {
    ...familyPolicy(summarizingMember),
    id: 'summary-4k',
    name: `mask → summarization* (cache-aware, caps ${summarizingMember.capTokens}, clear to ${trailClearTo})`,
    description:
      `a member of the explored family that calls the summarizer, chosen near its frontier: tool results over ${summarizingMember.capTokens} ` +
      `tokens cut when they arrive, the cache-aware trigger clearing to ${trailClearTo} tokens whatever the window (room for the task and ` +
      `the artifact trail), \`recentShare: ${trailRecentShare}\` (the room goes to the trail first)`,
  },
  {
    ...familyPolicy(continuationMember),
    id: 'continuation-explored',
    name: `summarization* in the conversation (cache-aware, caps, clear to ${continuationMember.clearTo})`,
    description:
      'the cheapest member of the explored family at 90% or more that asks the summarizer in the conversation, with the summary before the task: ' +
      `summarization alone, tool results over ${ingestionCapTokens} tokens cut when they arrive, the cache-aware trigger ` +
      `clearing to ${continuationMember.clearTo} of the limit (compaction cost ${continuationSummarizerCost}, the cache ` +
      `read price), \`recentShare: ${trailRecentShare}\``,
  },
  {
    ...familyPolicy(trailMember),
    id: 'trail-4k',
    name: `truncation → artifact trail (cache-aware, caps, clear to ${trailClearTo})`,
    description:
      `a member of the explored family chosen by hand near its frontier: the truncation’s defaults, tool results over ${ingestionCapTokens} tokens ` +
      `cut when they arrive, the cache-aware trigger (compaction cost 0) clearing to ${trailClearTo} tokens, summarization with ` +
      `\`recentShare: ${trailRecentShare}\` and \`maxOutputTokens: 0\`: it calls no model, the summary is its header and the ` +
      'artifact trail. What a real summary would add (decisions, state) no probe measures',
  },
  {
    ...familyPolicy({ ...continuationMember, placement: 'assistant-after-task' }),
    id: 'continuation-after-task',
    name: `summarization* in the conversation after the task (cache-aware, caps, clear to ${continuationMember.clearTo})`,
    description: afterTaskDescription,
  },
  {
    ...familyPolicy({ ...trailMember, placement: 'assistant-after-task' }),
    id: 'trail-after-task',
    name: `truncation → artifact trail after the task (cache-aware, caps, clear to ${trailClearTo})`,
    description: afterTaskDescription,
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
