import {
  type BudgetOptions,
  type CompactionStrategy,
  type CompactionTriggerPolicy,
  createPipeline,
  type Message,
  resolveBudget,
  type TokenCounter,
} from '@compaction/core';
import { createMeteredProvider, type MeteredProvider } from '@compaction/simulation';
import { createPruning } from '@compaction/strategy-pruning';
import { createSlidingWindow } from '@compaction/strategy-sliding-window';
import { createSummarization } from '@compaction/strategy-summarization';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { createScriptedSummarizer } from './scripted-summarizer.js';
import { createSummarizingCondenser } from './summarizing-condenser.js';
import { createToolResultClearing } from './tool-result-clearing.js';

/** Whether a policy is a Compaction strategy, a pipeline of them, or emulates another system's default. */
export type PolicyKind = 'baseline' | 'strategy' | 'pipeline' | 'reference';

/** What one simulation of a policy needs. */
export interface PolicyRun {
  strategy: CompactionStrategy;
  /** The summarizer the strategy calls, metered so that its calls are billed. */
  provider?: MeteredProvider;
  /** A trigger policy in place of the token trigger alone, on the replay's clock. */
  triggerPolicy?: (now: () => number) => CompactionTriggerPolicy;
  /** Applied to each message as it arrives (caps at ingestion). */
  ingest?: (message: Message) => Message;
}

/** A way of keeping a conversation inside the window: what runs, and when. */
export interface Policy {
  /** Short stable identifier, used in charts. */
  id: string;
  /** Name in the tables. */
  name: string;
  kind: PolicyKind;
  /** How it is set up, for the notes under the tables. */
  description: string;
  /** Whether it calls the (scripted) summarizer. */
  summarizes: boolean;
  /** Set on members of the family `pnpm evaluate:explore` searches (`policy-family.ts`). */
  explored?: true;
  /** When it runs, for a context window. */
  budget(contextWindow: number): BudgetOptions;
  /** A fresh strategy (and summarizer) for one run. */
  create(counter: TokenCounter): PolicyRun;
  /**
   * The same policy with the summarization strategy's `language` option set, where the policy's summarization
   * takes the options a user gives (the explored family's members).
   */
  withLanguage?(language: string): Policy;
}

/** Compaction's default trigger and target (0.85 and 0.6 of the limit). */
export const defaultBudget = (contextWindow: number): BudgetOptions => ({ contextWindow });

/**
 * A trigger that fires before every model call, for policies that decide for themselves (by counting
 * events or observations) whether to change anything. The Compactor still waits for 4 new messages after a
 * compaction before it runs again while the context is over this trigger.
 */
const everyCall = (contextWindow: number): BudgetOptions => ({ contextWindow, trigger: 3, target: 2 });

/** A budget that compacts earlier and deeper than the default (0.85 and 0.6), for fewer tokens per call. */
export const earlyBudget = { trigger: 0.6, target: 0.25 } as const;

/** Anthropic's context editing clears tool results once the input exceeds 100,000 tokens by default. */
export const anthropicTrigger = 100_000;

/** Anthropic's default trigger is half of a 200k window; scaled, half of the simulated window. */
export const anthropicScaledTriggerShare = 0.5;

/** A run whose strategy calls a fresh metered scripted summarizer, so its calls are billed. */
export function withSummarizer(build: (provider: MeteredProvider) => CompactionStrategy): Policy['create'] {
  return (counter) => {
    const provider = createMeteredProvider(createScriptedSummarizer(), counter);
    return { strategy: build(provider), provider };
  };
}

export function truncationThenSummarization(provider: MeteredProvider): CompactionStrategy {
  return createPipeline([createToolResultTruncation(), createSummarization({ provider })]);
}

/** The policies evaluated before the cost levers. */
export const basePolicies: readonly Policy[] = [
  {
    id: 'none',
    name: 'no compaction',
    kind: 'baseline',
    description: 'the whole history at every call (over the limit when it does not fit)',
    summarizes: false,
    budget: (contextWindow) => ({ contextWindow, trigger: false }),
    create: () => ({ strategy: createPruning() }),
  },
  {
    id: 'truncation',
    name: 'tool-result-truncation',
    kind: 'strategy',
    description: 'defaults: `truncate`, keep the 3 newest results, old results over 200 tokens cut',
    summarizes: false,
    budget: defaultBudget,
    create: () => ({ strategy: createToolResultTruncation() }),
  },
  {
    id: 'mask',
    name: 'tool-result-truncation (mask)',
    kind: 'strategy',
    description: '`mode: mask`, otherwise defaults',
    summarizes: false,
    budget: defaultBudget,
    create: () => ({ strategy: createToolResultTruncation({ mode: 'mask' }) }),
  },
  {
    id: 'pruning',
    name: 'pruning',
    kind: 'strategy',
    description: 'defaults: keep the task, at least 5 recent turns, leave a marker',
    summarizes: false,
    budget: defaultBudget,
    create: () => ({ strategy: createPruning() }),
  },
  {
    id: 'sliding',
    name: 'sliding-window',
    kind: 'strategy',
    description: 'defaults: head plus the newest turns that fit the target',
    summarizes: false,
    budget: defaultBudget,
    create: () => ({ strategy: createSlidingWindow() }),
  },
  {
    id: 'summary',
    name: 'summarization*',
    kind: 'strategy',
    description: 'defaults, scripted summarizer (fixed text); the artifact trail is built without it',
    summarizes: true,
    budget: defaultBudget,
    create: withSummarizer((provider) => createSummarization({ provider })),
  },
  {
    id: 'trunc+sliding',
    name: 'truncation → sliding-window',
    kind: 'pipeline',
    description: 'pipeline, both with defaults (the CLI default)',
    summarizes: false,
    budget: defaultBudget,
    create: () => ({ strategy: createPipeline([createToolResultTruncation(), createSlidingWindow()]) }),
  },
  {
    id: 'mask+sliding',
    name: 'mask → sliding-window',
    kind: 'pipeline',
    description: 'pipeline, truncation in `mask` mode',
    summarizes: false,
    budget: defaultBudget,
    create: () => ({
      strategy: createPipeline([createToolResultTruncation({ mode: 'mask' }), createSlidingWindow()]),
    }),
  },
  {
    id: 'trunc+pruning',
    name: 'truncation → pruning',
    kind: 'pipeline',
    description: 'pipeline, both with defaults',
    summarizes: false,
    budget: defaultBudget,
    create: () => ({ strategy: createPipeline([createToolResultTruncation(), createPruning()]) }),
  },
  {
    id: 'trunc+summary',
    name: 'truncation → summarization*',
    kind: 'pipeline',
    description: 'pipeline, scripted summarizer',
    summarizes: true,
    budget: defaultBudget,
    create: withSummarizer(truncationThenSummarization),
  },
  {
    id: 'trunc+summary-early',
    name: 'truncation → summarization* (early)',
    kind: 'pipeline',
    description: `the same pipeline with an earlier, deeper budget: trigger at ${earlyBudget.trigger} of the limit, compact to ${earlyBudget.target}`,
    summarizes: true,
    budget: (contextWindow) => ({ contextWindow, ...earlyBudget }),
    create: withSummarizer(truncationThenSummarization),
  },
  {
    id: 'anthropic',
    name: 'ref: Anthropic tool-result clearing (100k)',
    kind: 'reference',
    description:
      'context editing defaults: at 100k input tokens clear every tool result but the 3 newest (inputs kept); never fires in a window whose limit is under 100k',
    summarizes: false,
    budget: (contextWindow) => {
      const { limit } = resolveBudget({ contextWindow });
      return anthropicTrigger < limit
        ? { contextWindow, trigger: anthropicTrigger, target: anthropicTrigger - 1 }
        : { contextWindow, trigger: false };
    },
    create: () => ({ strategy: anthropicClearing() }),
  },
  {
    id: 'anthropic-scaled',
    name: 'ref: Anthropic tool-result clearing (scaled)',
    kind: 'reference',
    description: 'the same, triggered at half the window (100k of a 200k window, scaled)',
    summarizes: false,
    budget: (contextWindow) => {
      const trigger = Math.floor(contextWindow * anthropicScaledTriggerShare);
      return { contextWindow, trigger, target: trigger - 1 };
    },
    create: () => ({ strategy: anthropicClearing() }),
  },
  {
    id: 'masking-10',
    name: 'ref: observation masking (10)',
    kind: 'reference',
    description: 'before every call, every tool result but the 10 newest replaced by a placeholder',
    summarizes: false,
    budget: everyCall,
    create: () => ({
      strategy: createToolResultClearing({
        name: 'observation-masking',
        keepRecent: 10,
        placeholder: '[Old observation omitted.]',
      }),
    }),
  },
  {
    id: 'openhands',
    name: 'ref: OpenHands condenser (120 events)*',
    kind: 'reference',
    description:
      '`LLMSummarizingCondenser` defaults: over 120 events keep the first 4 and the newest 55, summarize the rest',
    summarizes: true,
    budget: everyCall,
    create: withSummarizer((provider) =>
      createSummarizingCondenser({ name: 'openhands-condenser', provider, maxEvents: 120, keepFirst: 4 }),
    ),
  },
  {
    id: 'openhands-tokens',
    name: 'ref: OpenHands condenser (token trigger)*',
    kind: 'reference',
    description:
      'the same cut (first 4 events, newer half), run at Compaction’s token trigger instead of an event count',
    summarizes: true,
    budget: defaultBudget,
    create: withSummarizer((provider) =>
      createSummarizingCondenser({ name: 'openhands-condenser', provider, keepFirst: 4 }),
    ),
  },
];

function anthropicClearing(): CompactionStrategy {
  return createToolResultClearing({
    name: 'anthropic-clear-tool-uses',
    keepRecent: 3,
    placeholder: '[Tool result cleared to save context.]',
  });
}
