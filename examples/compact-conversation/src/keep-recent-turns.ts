import {
  assertValidHistory,
  BudgetUnreachableError,
  type CompactionStrategy,
  latestUserMessageIndex,
} from '@compaction/core';
import { assembleKeptTurns, countTurn, keepUserTurnFirst, planTurns } from '@compaction/strategy-kit';

/**
 * A custom strategy written against the core spec: keeps the head (system prompt, original task, pinned
 * messages, newest request) and as many of the newest turns as fit the target, with a marker where turns were
 * skipped. The kit's turn plan keeps tool calls with their results, and its assembly keeps the kept turns in
 * their order with a user-role marker per gap, so the result stays valid for every provider.
 */
export function keepRecentTurns(): CompactionStrategy {
  return {
    specificationVersion: 'v1',
    name: 'keep-recent-turns',
    async compact({ messages, counter, budget, round }) {
      assertValidHistory(messages);
      const plan = planTurns(messages, counter, { keepOriginalTask: true });
      const kept = Uint8Array.from(plan.protectedTurns);
      let tokens = plan.tokens.reduce((sum, turnTokens) => sum + turnTokens, 0);
      // Walk from the newest turn back, keeping turns while they fit the target; the newest turn and the
      // turns after the newest user request are always kept.
      const latest = latestUserMessageIndex(messages);
      for (let index = plan.turns.length - 1; index >= 0; index--) {
        if (kept[index] === 1) continue;
        const turn = plan.turns[index]!;
        const turnTokens = countTurn(messages, turn, counter);
        const required = index === plan.turns.length - 1 || (latest !== -1 && turn.start > latest);
        if (tokens + turnTokens > budget.target && !required) break;
        tokens += turnTokens;
        kept[index] = 1;
      }
      const userFirst = keepUserTurnFirst(messages, plan, kept);
      const assembled = assembleKeptTurns(messages, plan, userFirst, {
        markers: true,
        text: (count) => `[${count} earlier messages were removed to save space.]`,
        round,
        strategy: 'keep-recent-turns',
      });
      const total = counter.estimate(assembled.messages);
      if (total > budget.limit) {
        throw new BudgetUnreachableError({
          target: budget.target,
          best: total,
          limit: budget.limit,
          reason: 'the head and newest turn do not fit',
        });
      }
      return { messages: assembled.messages, details: { skippedMessages: assembled.removedMessages } };
    },
  };
}
