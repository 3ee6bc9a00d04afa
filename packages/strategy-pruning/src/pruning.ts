import {
  assembleKeptTurns,
  assertValidHistory,
  BudgetUnreachableError,
  type CompactionOutput,
  type CompactionStrategy,
  countTurn,
  keepUserTurnFirst,
  planTurns,
  type RemovalMarkerSettings,
  removalMarkerCost,
  validateOptions,
} from '@compaction/core';
import { markerText } from './marker-text.js';
import { type PruningOptions, pruningOptionsSchema } from './pruning-options.js';

const strategyName = 'pruning';

/**
 * Creates the `pruning` strategy: drops the oldest whole turns until the history is at or under the target,
 * keeping the system prompt, pinned messages, the original task, the newest user request and the newest
 * `minRecentTurns` turns. Options are validated here, so direct use is checked like a config.
 * Throws `InvalidOptionsError` for bad options.
 */
export function createPruning(options: PruningOptions = {}): CompactionStrategy {
  const { keepOriginalTask, minRecentTurns, marker } = validateOptions<Required<PruningOptions>>(
    pruningOptionsSchema,
    options,
    `strategy "${strategyName}"`,
  );
  return {
    specificationVersion: 'v1',
    name: strategyName,
    async compact({ messages, counter, budget, round }): Promise<CompactionOutput> {
      assertValidHistory(messages);
      const plan = planTurns(messages, counter, { keepOriginalTask });
      // Pruning weighs every turn, so the turns the plan left uncounted are counted here.
      const turnTokens = plan.tokens.slice();
      let total = 0;
      plan.turns.forEach((turn, turnIndex) => {
        if (plan.protectedTurns[turnIndex] === 0) turnTokens[turnIndex] = countTurn(messages, turn, counter);
        total += turnTokens[turnIndex]!;
      });
      if (total <= budget.target) {
        return { messages: [...messages], details: { removedMessages: 0, removedTurns: 0 } };
      }
      const settings: RemovalMarkerSettings = {
        markers: marker,
        text: markerText,
        round,
        strategy: strategyName,
      };
      const turnCount = plan.turns.length;
      const kept = new Uint8Array(turnCount).fill(1);
      const recentStart = Math.max(0, turnCount - minRecentTurns);
      const costOfMarker = removalMarkerCost(counter, settings);
      let tokens = total;
      const drop = (turnIndex: number) => {
        kept[turnIndex] = 0;
        tokens -= turnTokens[turnIndex]!;
        // A turn next to an already removed one joins its marker; otherwise it opens a new gap.
        if (turnIndex === 0 || kept[turnIndex - 1] === 1) tokens += costOfMarker;
      };
      // Oldest first; the recent turns give way only when the limit cannot be met without them.
      for (let turnIndex = 0; turnIndex < recentStart && tokens > budget.target; turnIndex++) {
        if (plan.protectedTurns[turnIndex] === 0) drop(turnIndex);
      }
      for (let turnIndex = recentStart; turnIndex < turnCount && tokens > budget.limit; turnIndex++) {
        if (plan.protectedTurns[turnIndex] === 0) drop(turnIndex);
      }
      // The recent turns are not dropped for it.
      keepUserTurnFirst(messages, plan, kept, recentStart);

      let assembled = assembleKeptTurns(messages, plan, kept, settings);
      let tokensAfter = counter.estimate(assembled.messages);
      if (tokensAfter > budget.limit && assembled.markers > 0) {
        // The markers are what tips it over: the limit comes first.
        assembled = assembleKeptTurns(messages, plan, kept, { ...settings, markers: false });
        tokensAfter = counter.estimate(assembled.messages);
      }
      if (tokensAfter > budget.limit) {
        throw new BudgetUnreachableError({
          tokens: tokensAfter,
          limit: budget.limit,
          reason:
            'the system prompt, pinned messages, original task and newest user request alone are over the limit',
        });
      }
      return {
        messages: assembled.messages,
        details: {
          removedMessages: assembled.removedMessages,
          removedTurns: assembled.removedTurns,
          markers: assembled.markers,
          tokensBefore: total,
          tokensAfter,
        },
      };
    },
  };
}
