import { createPipeline, createTokenCounter, type Message } from '@compaction/core';
import { createCacheAwareTrigger } from '@compaction/strategy-kit';
import { createSummarization } from '@compaction/strategy-summarization';
import { capToolResults, createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { defaultBudget, type Policy, withSummarizer } from './policies.js';

/**
 * One member of the family the exploration searches: tool-result truncation then summarization, each setting
 * a user can give in a config. Nothing in it reads the probes.
 */
export interface FamilyMember {
  /** How old tool results are shortened first. */
  mode: 'mask' | 'truncate';
  /** Tool results over this many tokens are cut when they arrive; undefined: never. */
  capTokens: number | undefined;
  /** `cache-aware`: the cache-aware trigger clears to `clearTo`; `tokens`: the token trigger compacts to it. */
  trigger: 'cache-aware' | 'tokens';
  /** What a compaction clears to: a share of the limit (at most 1) or tokens. */
  clearTo: number;
  /** Whether the summarizer is called: without it (`maxOutputTokens: 0`) the summary is the artifact trail alone. */
  summarizer: boolean;
  /** The summarization strategy's `recentShare`. */
  recentShare: number;
}

/**
 * The `compactionCost` given to the cache-aware trigger when a summarizer runs: it reads what it replaces at
 * the full input price, about one input price per token removed.
 */
export const summarizerCost = 1;

/** A short name of a member, for tables. */
export function memberName(member: FamilyMember): string {
  const clearTo =
    member.clearTo <= 1
      ? `${member.clearTo} of the limit`
      : `${member.clearTo.toLocaleString('en-US')} tokens`;
  return [
    `${member.mode} → ${member.summarizer ? 'summarization*' : 'artifact trail'}`,
    member.trigger,
    member.capTokens === undefined ? 'no caps' : `caps ${member.capTokens}`,
    `clear to ${clearTo}`,
    `recentShare ${member.recentShare}`,
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
    summarizes: member.summarizer,
    budget:
      member.trigger === 'tokens'
        ? (contextWindow) => ({ contextWindow, target: member.clearTo })
        : defaultBudget,
    create: (counter) => {
      const run = withSummarizer((provider) =>
        createPipeline([
          createToolResultTruncation({ mode: member.mode }),
          createSummarization({
            provider,
            recentShare: member.recentShare,
            // 0: no summary text, the summarizer is never called.
            ...(member.summarizer ? {} : { maxOutputTokens: 0 }),
          }),
        ]),
      )(counter);
      const compactionCost = member.summarizer ? summarizerCost : 0;
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
