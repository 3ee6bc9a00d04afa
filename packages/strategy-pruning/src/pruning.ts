import {
  assertValidHistory,
  BudgetUnreachableError,
  type CompactionOutput,
  type CompactionStrategy,
  type Message,
  validateOptions,
} from '@compaction/core';
import { type PruningOptions, pruningOptionsSchema } from './pruning-options.js';
import { assembleKeptTurns, type MarkerSettings, markerCost } from './removal-markers.js';
import { firstKeptConversationalTurn, planTurns, type TurnPlan } from './turn-plan.js';

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
      const plan = planTurns(messages, counter, keepOriginalTask);
      if (plan.total <= budget.target) {
        return { messages: [...messages], details: { removedMessages: 0, removedTurns: 0 } };
      }
      const settings: MarkerSettings = { markers: marker, round, strategy: strategyName };
      const turnCount = plan.turns.length;
      const kept = new Uint8Array(turnCount).fill(1);
      const recentStart = Math.max(0, turnCount - minRecentTurns);
      const costOfMarker = markerCost(counter, settings);
      let tokens = plan.total;
      const drop = (turnIndex: number) => {
        kept[turnIndex] = 0;
        tokens -= plan.tokens[turnIndex]!;
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
      startWithUserTurn(messages, plan, kept, recentStart);

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
          tokensBefore: plan.total,
          tokensAfter,
        },
      };
    },
  };
}

/**
 * When the input starts with a user turn, the result must too. Without the original task, the oldest kept
 * turns that are not user messages are dropped as well (up to the recent turns); if a protected message
 * still stands first, the original task is kept after all.
 */
function startWithUserTurn(
  messages: readonly Message[],
  plan: TurnPlan,
  kept: Uint8Array,
  recentStart: number,
): void {
  if (!plan.startsWithUser) return;
  let first = firstKeptConversationalTurn(messages, plan, kept);
  while (
    first !== -1 &&
    messages[plan.turns[first]!.start]!.role !== 'user' &&
    first < recentStart &&
    plan.protectedTurns[first] === 0
  ) {
    kept[first] = 0;
    first = firstKeptConversationalTurn(messages, plan, kept, first + 1);
  }
  if (first !== -1 && messages[plan.turns[first]!.start]!.role !== 'user' && plan.taskTurn !== -1) {
    kept[plan.taskTurn] = 1;
  }
}
