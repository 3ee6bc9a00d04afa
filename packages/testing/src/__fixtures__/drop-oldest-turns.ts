import { BudgetUnreachableError, type CompactionStrategy, repairHistory } from '@compaction/core';
import { assembleKeptTurns, countTurn, planTurns } from '@compaction/strategy-kit';

/**
 * A minimal correct strategy for exercising the suite, on core's building blocks: drops the oldest turns
 * that core's turn plan does not protect until the target is met, with no marker but where two model turns
 * would otherwise merge ahead of reasoning.
 */
export function dropOldestTurns(): CompactionStrategy {
  return {
    specificationVersion: 'v1',
    name: 'drop-oldest-turns',
    async compact({ messages: input, counter, budget, round }) {
      const { messages } = repairHistory(input, { orphanedResults: 'error', missingResults: 'error' });
      const plan = planTurns(messages, counter, { keepOriginalTask: true });
      const kept = new Uint8Array(plan.turns.length).fill(1);
      let tokens = counter.estimate(messages);
      plan.turns.forEach((turn, turnIndex) => {
        if (tokens <= budget.target || plan.protectedTurns[turnIndex] === 1) return;
        kept[turnIndex] = 0;
        tokens -= countTurn(messages, turn, counter);
      });
      const assembled = assembleKeptTurns(messages, plan, kept, {
        markers: false,
        text: (count) => `[${count} removed]`,
        round,
        strategy: 'drop-oldest-turns',
      });
      const best = counter.estimate(assembled.messages);
      if (best > budget.limit) {
        throw new BudgetUnreachableError({
          target: budget.target,
          best,
          limit: budget.limit,
          reason: 'protected turns too large',
        });
      }
      return { messages: assembled.messages };
    },
  };
}
