import {
  assertValidHistory,
  BudgetUnreachableError,
  type CompactionStrategy,
  latestUserMessageIndex,
} from '@compaction/core';
import { assembleKeptTurns, keepUserTurnFirst, planTurns } from '@compaction/strategy-kit';

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
      const latest = latestUserMessageIndex(messages);
      // The newest turn and the turns after the newest user request are always kept; the other turns are
      // candidates, newest first.
      const required = plan.turns.map(
        (turn, index) =>
          plan.protectedTurns[index] === 1 ||
          index === plan.turns.length - 1 ||
          (latest !== -1 && turn.start > latest),
      );
      const candidates = plan.turns
        .map((_, index) => index)
        .filter((index) => !required[index])
        .reverse();
      const assemble = (keptCandidates: number) => {
        const kept = Uint8Array.from(required, (isRequired) => (isRequired ? 1 : 0));
        for (const index of candidates.slice(0, keptCandidates)) kept[index] = 1;
        return assembleKeptTurns(messages, plan, keepUserTurnFirst(messages, plan, kept), {
          markers: true,
          text: (count) => `[${count} earlier messages were removed to save space.]`,
          round,
          strategy: 'keep-recent-turns',
        });
      };
      // Keep as many of the newest candidates as fit the target. A marker costs tokens too, so the count is
      // taken on each assembled history rather than summed per turn; when none fits, the smallest one stands.
      let chosen = { assembled: assemble(candidates.length), total: Number.POSITIVE_INFINITY };
      for (let keptCandidates = candidates.length; keptCandidates >= 0; keptCandidates--) {
        const assembled = assemble(keptCandidates);
        const total = counter.estimate(assembled.messages);
        if (total < chosen.total) chosen = { assembled, total };
        if (total <= budget.target) break;
      }
      const { assembled, total } = chosen;
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
