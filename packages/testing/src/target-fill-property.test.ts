import { BudgetUnreachableError, type CompactionStrategy, type Message } from '@compaction/core';
import { assembleKeptTurns, countTurn, fillRoomWithTurn, planTurns } from '@compaction/strategy-kit';
import { describe, expect, it } from 'vitest';
import { reachableFloor } from './protected-tokens.js';
import { checkTargetFill } from './target-fill-property.js';

/**
 * Drops the oldest unprotected turns until the target is met; with `fill`, the turn whose removal would leave
 * more than the slack unused is shortened to fill the room instead (as the packaged strategies do).
 */
function dropOldest({ fill }: { fill: boolean }): CompactionStrategy {
  return {
    specificationVersion: 'v1',
    name: fill ? 'drop-oldest-and-fill' : 'drop-oldest',
    async compact({ messages, counter, budget, round }) {
      const plan = planTurns(messages, counter);
      const kept = new Uint8Array(plan.turns.length).fill(1);
      const replacements = new Map<number, Message[]>();
      const settings = {
        markers: true,
        text: (count: number) => `[${count} removed]`,
        round,
        strategy: 'test',
      };
      let tokens = counter.estimate(messages);
      for (const [turnIndex, turn] of plan.turns.entries()) {
        if (tokens <= budget.target) break;
        if (plan.protectedTurns[turnIndex] === 1) continue;
        // Room for a marker, whether or not one is needed.
        const rest = tokens - countTurn(messages, turn, counter) + 32;
        const shortened = fill
          ? fillRoomWithTurn(
              messages,
              turn,
              counter,
              { room: budget.target - rest, target: budget.target },
              {
                round,
                strategy: 'test',
              },
            )
          : undefined;
        if (shortened !== undefined) {
          replacements.set(turnIndex, shortened);
          break;
        }
        kept[turnIndex] = 0;
        tokens = rest;
      }
      const assembled = assembleKeptTurns(messages, plan, kept, settings, replacements);
      const best = counter.estimate(assembled.messages);
      if (best > budget.limit) {
        throw new BudgetUnreachableError({ target: budget.target, best, limit: budget.limit });
      }
      return { messages: assembled.messages };
    },
  };
}

describe('checkTargetFill', () => {
  const settings = { numRuns: 100, seed: 7 };

  it('passes a strategy that shortens the turn at its boundary to fill the target', async () => {
    // It leaves a marker where it drops turns: the targets it must reach are those with room for one.
    expect(
      await checkTargetFill({ ...settings, strategy: dropOldest({ fill: true }), floor: reachableFloor }),
    ).toBeUndefined();
  });

  it('catches a strategy that drops a huge turn whole and ends far below the target', async () => {
    const failure = await checkTargetFill({ ...settings, strategy: dropOldest({ fill: false }) });
    expect(failure).toMatch(/tokens against a target of \d+ .*under the least allowed/);
    expect(failure).toMatch(/\(seed 7, path "[\d:]+"\)\nCounterexample: /);
  });

  it('catches an unreachable-budget error that names the limit instead of the target', async () => {
    const namesTheLimit: CompactionStrategy = {
      specificationVersion: 'v1',
      name: 'names-the-limit',
      async compact({ budget }) {
        throw new BudgetUnreachableError({ target: budget.limit, best: budget.limit + 1, reason: 'x' });
      },
    };
    const failure = await checkTargetFill({
      ...settings,
      strategy: namesTheLimit,
      // Every target unreachable, so only the error's numbers are checked.
      floor: () => Number.POSITIVE_INFINITY,
    });
    expect(failure).toMatch(/^BudgetUnreachableError with target \d+ and best \d+/);
  });
});
