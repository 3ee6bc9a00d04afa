import {
  BudgetUnreachableError,
  type CompactionStrategy,
  firstUserMessageIndex,
  groupTurns,
  isPinned,
  latestUserMessageIndex,
  repairHistory,
} from '@compaction/core';

/**
 * A minimal correct strategy for exercising the suite: drops the oldest whole turns that hold no system,
 * pinned, first-user or newest-user message until the target is met.
 */
export function dropOldestTurns(): CompactionStrategy {
  return {
    specificationVersion: 'v1',
    name: 'drop-oldest-turns',
    async compact({ messages: input, counter, budget }) {
      const { messages } = repairHistory(input, { orphanedResults: 'error', missingResults: 'error' });
      const protectedIndexes = new Set([firstUserMessageIndex(messages), latestUserMessageIndex(messages)]);
      messages.forEach((message, index) => {
        if (message.role === 'system' || isPinned(message)) protectedIndexes.add(index);
      });
      const dropped = new Set<number>();
      let tokens = counter.estimate(messages);
      for (const turn of groupTurns(messages)) {
        if (tokens <= budget.target) break;
        let keep = false;
        for (let index = turn.start; index < turn.end; index++) if (protectedIndexes.has(index)) keep = true;
        if (keep) continue;
        for (let index = turn.start; index < turn.end; index++) {
          dropped.add(index);
          tokens -= counter.countMessage(messages[index]!);
        }
      }
      if (tokens > budget.limit)
        throw new BudgetUnreachableError({
          tokens,
          limit: budget.limit,
          reason: 'protected turns too large',
        });
      return { messages: messages.filter((_, index) => !dropped.has(index)) };
    },
  };
}
