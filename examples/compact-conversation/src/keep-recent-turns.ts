import {
  assertValidHistory,
  BudgetUnreachableError,
  type CompactionStrategy,
  latestUserMessageIndex,
} from '@compaction/core';
import { assembleKeptTurns, keepUserTurnFirst, planTurns } from '@compaction/strategy-kit';

/**
 * A custom strategy written against the core spec: keeps the head (the opening, that is the system prompt and
 * the task as sent; pinned messages; the newest request) and as many of the newest turns as fit the target,
 * with a marker where turns were skipped. The kit's turn plan keeps tool calls with their results, and its
 * assembly keeps the kept turns in their order with one user-role marker per gap (after the first kept model
 * turn, never inside the opening), so the result stays valid for every provider.
 */
export function keepRecentTurns(): CompactionStrategy {
  return {
    specificationVersion: 'v1',
    name: 'keep-recent-turns',
    async compact({ messages, counter, budget, round }) {
      assertValidHistory(messages);
      // The plan protects the opening (system prompt and task, whole), pinned messages and the newest request.
      const plan = planTurns(messages, counter);
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
          // In the form core reads back as a marker ("[N earlier messages removed ...]"): a provider's format
          // drops the metadata, and the next compaction still merges with this marker instead of adding one.
          text: (count) => `[${count} earlier messages removed to save space.]`,
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
