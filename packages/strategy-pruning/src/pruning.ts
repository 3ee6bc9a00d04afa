import { type CompactionStrategy, type Message, validateOptions } from '@compaction/core';
import {
  countTurn,
  createWholeTurnsStrategy,
  fillRoomWithTurn,
  keepChosenTurns,
  nothingRemovedOutput,
} from '@compaction/strategy-kit';
import { markerText } from './marker-text.js';
import { type PruningOptions, pruningOptionsSchema } from './pruning-options.js';

const strategyName = 'pruning';

/**
 * Creates the `pruning` strategy: drops the oldest whole turns until the history is at or under the target,
 * keeping the system prompt, pinned messages, the opening (the task, whole), the newest user request, a last turn still
 * waiting for tool results and the newest `minRecentTurns` turns. When dropping the last turn it needs to
 * drop would leave the history more than `wholeTurnSlack` below the target (a turn with a huge tool result),
 * that turn is kept with its results shortened to fill the room instead. Options are validated here, so
 * direct use is checked like a config. Throws `InvalidOptionsError` for bad options, and
 * `BudgetUnreachableError` (with the target and the best reached) when what it may not remove is over the
 * limit.
 */
export function createPruning(options: PruningOptions = {}): CompactionStrategy {
  const { minRecentTurns, marker } = validateOptions<Required<PruningOptions>>(
    pruningOptionsSchema,
    options,
    `strategy "${strategyName}"`,
  );
  const settings = { strategy: strategyName, markers: marker, markerText };
  return createWholeTurnsStrategy(
    settings,
    ({ messages, counter, budget, round, archive = false }, start) => {
      const { plan, markerCost } = start;
      // Pruning weighs every turn, so the turns the plan left uncounted are counted here.
      const turnTokens = plan.tokens.slice();
      let total = 0;
      plan.turns.forEach((turn, turnIndex) => {
        if (plan.protectedTurns[turnIndex] === 0) turnTokens[turnIndex] = countTurn(messages, turn, counter);
        total += turnTokens[turnIndex]!;
      });
      if (total <= budget.target) return nothingRemovedOutput(messages);
      const turnCount = plan.turns.length;
      const recentStart = Math.max(0, turnCount - minRecentTurns);

      /** Drops the oldest turns that `protectedTurns` allows until the tally meets the target. */
      const selectTurns = (protectedTurns: Readonly<Uint8Array>) => {
        const kept = new Uint8Array(turnCount).fill(1);
        const replacements = new Map<number, Message[]>();
        let tokens = total;
        /**
         * Removes a turn, or, when that would leave more than the slack below the target, keeps it with its
         * tool results shortened to fill the room instead. Returns whether it shortened (then the target is
         * met).
         */
        const removeOrShorten = (turnIndex: number): boolean => {
          const rest = tokens - turnTokens[turnIndex]!;
          // A turn next to an already removed one joins its marker; otherwise it opens a new gap.
          const withoutTurn = rest + (turnIndex === 0 || kept[turnIndex - 1] === 1 ? markerCost : 0);
          if (withoutTurn < budget.target) {
            const shortened = fillRoomWithTurn(
              messages,
              plan.turns[turnIndex]!,
              counter,
              { room: budget.target - rest, target: budget.target },
              { round, strategy: strategyName, archive },
            );
            if (shortened !== undefined) {
              replacements.set(turnIndex, shortened);
              tokens = rest + counter.estimate(shortened);
              return true;
            }
          }
          kept[turnIndex] = 0;
          tokens = withoutTurn;
          return false;
        };
        // Oldest first; the recent turns give way only when the limit cannot be met without them.
        for (let turnIndex = 0; turnIndex < recentStart && tokens > budget.target; turnIndex++) {
          if (protectedTurns[turnIndex] === 0 && removeOrShorten(turnIndex)) return { kept, replacements };
        }
        for (let turnIndex = recentStart; turnIndex < turnCount && tokens > budget.limit; turnIndex++) {
          if (protectedTurns[turnIndex] === 0 && removeOrShorten(turnIndex)) break;
        }
        return { kept, replacements };
      };
      return keepChosenTurns(
        { messages, counter, budget },
        start,
        // The recent turns are not dropped to keep a user turn first.
        (turnPlan) => ({ ...selectTurns(turnPlan.protectedTurns), dropBefore: recentStart }),
        { tokensBefore: total },
      );
    },
  );
}
