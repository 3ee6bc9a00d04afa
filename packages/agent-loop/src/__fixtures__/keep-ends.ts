import {
  BudgetUnreachableError,
  type CompactionStrategy,
  latestUserMessageIndex,
  openingIndexes,
} from '@compaction/core';

/**
 * Test strategy: keeps the system prompt, the opening and everything from the newest user message
 * on, which keeps tool calls paired with their results in the conversations the tests build.
 */
export function keepEnds(): CompactionStrategy {
  return {
    specificationVersion: 'v1',
    name: 'keep-ends',
    async compact({ messages, counter, budget }) {
      const opening = new Set(openingIndexes(messages));
      const latest = latestUserMessageIndex(messages);
      const kept = messages.filter(
        (message, index) => message.role === 'system' || opening.has(index) || index >= latest,
      );
      const best = counter.count(kept);
      if (best > budget.limit) {
        throw new BudgetUnreachableError({
          target: budget.target,
          best,
          limit: budget.limit,
          reason: 'ends too large',
        });
      }
      return { messages: kept, summary: `${messages.length - kept.length} removed` };
    },
  };
}
