import { createPipeline, createTokenCounter, type Message } from '@compaction/core';
import { defaultPriceModel } from '@compaction/simulation';
import { createCacheAwareTrigger } from '@compaction/strategy-kit';
import { createSummarization, type SummaryPlacement } from '@compaction/strategy-summarization';
import { capToolResults, createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { defaultBudget, type Policy, withSummarizer } from './policies.js';

/** How a member calls the summarizer: not at all, with the span as a transcript, or in the conversation. */
export type SummarizerUse = 'none' | 'transcript' | 'continuation';

/**
 * One member of the family the exploration searches: tool-result truncation then summarization, each setting
 * a user can give in a config. Nothing in it reads the probes.
 */
export interface FamilyMember {
  /**
   * How old tool results are shortened first: `mask` or `truncate` (tool-result truncation's modes), or `none`,
   * summarization alone. A first stage rewrites messages the summarizer would otherwise read from the cache.
   */
  mode: 'mask' | 'truncate' | 'none';
  /** Tool results over this many tokens are cut when they arrive; undefined: never. */
  capTokens: number | undefined;
  /** `cache-aware`: the cache-aware trigger clears to `clearTo`; `tokens`: the token trigger compacts to it. */
  trigger: 'cache-aware' | 'tokens';
  /** What a compaction clears to: a share of the limit (at most 1) or tokens. */
  clearTo: number;
  /**
   * Whether and how the summarizer is called: `none` (`maxOutputTokens: 0`), the summary is the artifact trail
   * alone; `transcript`, the span rendered in a request of its own; `continuation`, the conversation as sent
   * and one more user message (`summarizerRequest: 'continuation'`), read through the prompt cache.
   */
  summarizer: SummarizerUse;
  /** The summarization strategy's `recentShare`. */
  recentShare: number;
  /**
   * The summarization strategy's `placement`. After the task (`assistant-after-task`), a compaction leaves the
   * system prompt and the task where they were, so the next call reads them from the cache; before it (the
   * default), the cache is written again from the summary on.
   */
  placement: SummaryPlacement;
  /** The summarization strategy's `language`; absent, its default (`auto`, the user's language). */
  language?: string;
}

/**
 * The `compactionCost` given to the cache-aware trigger when a summarizer runs: it reads what it replaces at
 * the full input price, about one input price per token removed.
 */
export const summarizerCost = 1;

/**
 * The same for a summarizer asked in the conversation: it reads what it replaces from the cache, at the cache
 * read price over the input price of the evaluation's price model (0.1 for Anthropic's list prices).
 */
export const continuationSummarizerCost =
  // Rounded: 0.3 / 3 is 0.09999999999999999 in floating point, and the figure is printed in the report.
  Math.round((defaultPriceModel.cacheReadPerMillion / defaultPriceModel.inputPerMillion) * 1000) / 1000;

/** The `compactionCost` of a member's summarizer use. */
export function compactionCostOf(use: SummarizerUse): number {
  return use === 'none' ? 0 : use === 'transcript' ? summarizerCost : continuationSummarizerCost;
}

/** How a member's summary is made, in its name. */
const summaryNames: Record<SummarizerUse, string> = {
  none: 'artifact trail',
  transcript: 'summarization*',
  continuation: 'summarization* in the conversation',
};

/** A short name of a member, for tables. */
export function memberName(member: FamilyMember): string {
  const clearTo =
    member.clearTo <= 1
      ? `${member.clearTo} of the limit`
      : `${member.clearTo.toLocaleString('en-US')} tokens`;
  return [
    member.mode === 'none'
      ? summaryNames[member.summarizer]
      : `${member.mode} → ${summaryNames[member.summarizer]}`,
    member.trigger,
    member.capTokens === undefined ? 'no caps' : `caps ${member.capTokens}`,
    `clear to ${clearTo}`,
    `recentShare ${member.recentShare}`,
    ...(member.placement === 'assistant-after-task' ? ['summary after the task'] : []),
  ].join(', ');
}

/** The policy of a family member, named by its settings. */
export function familyPolicy(member: FamilyMember): Policy {
  const name = memberName(member);
  return {
    id: name,
    name,
    kind: 'pipeline',
    description: name,
    summarizes: member.summarizer !== 'none',
    explored: true,
    withLanguage: (language) => familyPolicy({ ...member, language }),
    budget:
      member.trigger === 'tokens'
        ? (contextWindow) => ({ contextWindow, target: member.clearTo })
        : defaultBudget,
    create: (counter) => {
      const run = withSummarizer((provider) =>
        createPipeline([
          ...(member.mode === 'none' ? [] : [createToolResultTruncation({ mode: member.mode })]),
          createSummarization({
            provider,
            recentShare: member.recentShare,
            placement: member.placement,
            // 0: no summary text, the summarizer is never called.
            ...(member.summarizer === 'none' ? { maxOutputTokens: 0 } : {}),
            ...(member.summarizer === 'continuation' ? { summarizerRequest: 'continuation' as const } : {}),
            ...(member.language === undefined ? {} : { language: member.language }),
          }),
        ]),
      )(counter);
      const compactionCost = compactionCostOf(member.summarizer);
      return {
        ...run,
        ...(member.trigger === 'cache-aware'
          ? {
              triggerPolicy: (now: () => number) =>
                createCacheAwareTrigger({ now, compactionCost, clearTo: member.clearTo }),
            }
          : {}),
        ...(member.capTokens === undefined ? {} : { ingest: capAtIngestion(member.capTokens) }),
      };
    },
  };
}

/** Cuts a tool result over `maxResultTokens` when it arrives (`capToolResults`). */
export function capAtIngestion(maxResultTokens: number): (message: Message) => Message {
  const counter = createTokenCounter();
  return (message) => capToolResults([message], { maxResultTokens, counter }).messages[0] ?? message;
}
