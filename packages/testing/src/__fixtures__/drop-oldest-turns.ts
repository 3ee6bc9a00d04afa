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
      const plan = planTurns(messages, counter);
      const unprotected = plan.turns.flatMap((_, turnIndex) =>
        plan.protectedTurns[turnIndex] === 1 ? [] : [turnIndex],
      );
      /** The history without the oldest `count` unprotected turns. */
      const withoutOldest = (count: number) => {
        const kept = new Uint8Array(plan.turns.length).fill(1);
        for (const turnIndex of unprotected.slice(0, count)) kept[turnIndex] = 0;
        return assembleKeptTurns(messages, plan, kept, {
          markers: false,
          text: (removed) => `[${removed} removed]`,
          round,
          strategy: 'drop-oldest-turns',
        });
      };
      // Turn counts first; then, since the assembled history need not count exactly the sum of its turns
      // (repairs where two model turns would merge), one more turn at a time until it fits.
      let tokens = counter.estimate(messages);
      let dropped = 0;
      while (dropped < unprotected.length && tokens > budget.target) {
        tokens -= countTurn(messages, plan.turns[unprotected[dropped]!]!, counter);
        dropped++;
      }
      let assembled = withoutOldest(dropped);
      while (dropped < unprotected.length && counter.estimate(assembled.messages) > budget.target) {
        dropped++;
        assembled = withoutOldest(dropped);
      }
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
