import {
  assertValidHistory,
  BudgetUnreachableError,
  type CompactionStrategy,
  firstUserMessageIndex,
  groupTurns,
  isPinned,
  latestUserMessageIndex,
  type Message,
  withCompactionMetadata,
} from '@compaction/core';

/**
 * A custom strategy written against the core spec: keeps the head (system prompt, original task, pinned
 * messages) and as many of the newest turns as fit the target, with a marker where turns were skipped.
 */
export function keepRecentTurns(): CompactionStrategy {
  return {
    specificationVersion: 'v1',
    name: 'keep-recent-turns',
    async compact({ messages, counter, budget, round }) {
      assertValidHistory(messages);
      const task = firstUserMessageIndex(messages);
      const isHead = (message: Message, index: number) =>
        message.role === 'system' || index === task || isPinned(message);
      const head = messages.filter(isHead);
      let tokens = counter.estimate(head);
      const turns = groupTurns(messages).filter((turn) => !isHead(messages[turn.start]!, turn.start));
      // Walk from the newest turn back, keeping turns while they fit the target; the turns from the newest
      // user request on are always kept.
      const latest = latestUserMessageIndex(messages);
      const latestInHead = latest === -1 || isHead(messages[latest]!, latest);
      const mustKeep = latestInHead ? -1 : turns.findIndex((turn) => turn.end > latest);
      let firstKept = turns.length;
      for (let index = turns.length - 1; index >= 0; index--) {
        const turn = turns[index]!;
        const turnTokens = counter.estimate(messages.slice(turn.start, turn.end));
        const required = index === turns.length - 1 || (mustKeep !== -1 && index >= mustKeep);
        if (tokens + turnTokens > budget.target && !required) break;
        tokens += turnTokens;
        firstKept = index;
      }
      const skipped = turns.slice(0, firstKept).reduce((sum, turn) => sum + (turn.end - turn.start), 0);
      const recent = turns.slice(firstKept).flatMap((turn) => messages.slice(turn.start, turn.end));
      const marker = withCompactionMetadata<Message>(
        {
          role: 'assistant',
          content: [{ type: 'text', text: `[${skipped} earlier messages were removed to save space.]` }],
        },
        { kind: 'marker', round, strategy: 'keep-recent-turns' },
      );
      const result = skipped > 0 ? [...head, marker, ...recent] : [...head, ...recent];
      const total = counter.estimate(result);
      if (total > budget.limit)
        throw new BudgetUnreachableError({
          tokens: total,
          limit: budget.limit,
          reason: 'the head and newest turn do not fit',
        });
      return { messages: result, details: { skippedMessages: skipped } };
    },
  };
}
