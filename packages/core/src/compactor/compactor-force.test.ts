import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collapseMiddle } from '../__fixtures__/collapse-middle.js';
import { conversation, system, user } from '../__fixtures__/messages.js';
import { BudgetUnreachableError } from '../errors/budget-unreachable-error.js';
import type { Message } from '../messages/message.js';
import type { CompactionBudget, CompactionStrategy } from '../specs/compaction-strategy-v1.js';
import { createTokenCounter } from '../tokens/token-counter.js';
import type { SkipReason } from './compaction-event.js';
import { createCompactor } from './compactor.js';

const counter = createTokenCounter();
const history = conversation(12, 300);
const historyTokens = counter.estimate(history);
// A window the history fills to a fifth: far under the target.
const roomyBudget = {
  contextWindow: historyTokens * 5,
  reservedOutputTokens: 0,
  safetyMargin: 0,
  target: 0.6,
};

/** collapseMiddle, recording the budget and instructions each call was given. */
function recording(): {
  strategy: CompactionStrategy;
  calls: { budget: CompactionBudget; instructions?: string }[];
} {
  const inner = collapseMiddle();
  const calls: { budget: CompactionBudget; instructions?: string }[] = [];
  const strategy: CompactionStrategy = {
    ...inner,
    compact: (input) => {
      calls.push({
        budget: input.budget,
        ...(input.instructions === undefined ? {} : { instructions: input.instructions }),
      });
      return inner.compact(input);
    },
  };
  return { strategy, calls };
}

describe('Compactor.compact with force', () => {
  it('compacts a history under the target, aiming for half of it, with the instructions', async () => {
    const { strategy, calls } = recording();
    const compactor = createCompactor({ strategy, budget: roomyBudget, counter });
    const unforced = await compactor.compact(history);
    expect(unforced).toMatchObject({ compacted: false, skipped: 'under-target' });
    expect(calls).toHaveLength(0);

    const forced = await compactor.compact(history, { force: true, instructions: 'keep the failing test' });
    expect(forced.compacted).toBe(true);
    expect(counter.count(forced.messages)).toBeLessThan(historyTokens);
    expect(calls).toEqual([
      {
        budget: { limit: compactor.budget.limit, target: Math.floor(historyTokens / 2) },
        instructions: 'keep the failing test',
      },
    ]);
    expect(forced.event).toMatchObject({ trigger: 'manual', instructions: 'keep the failing test' });
  });

  it('aims for the budget target as usual when the history is over it', async () => {
    const { strategy, calls } = recording();
    const budget = { ...roomyBudget, contextWindow: Math.ceil(historyTokens * 1.2) };
    const compactor = createCompactor({ strategy, budget, counter });
    await compactor.compact(history, { force: true });
    expect(calls[0]?.budget.target).toBe(compactor.budget.target);
  });

  it('keeps the best result when what may not be removed is over half of the history', async () => {
    // The task is most of the history: half of it is out of reach, what goes is the middle.
    const task = user(`Fix the failing test. ${'context '.repeat(2_000)}`);
    const large = [history[0]!, task, ...history.slice(2)];
    const tokens = counter.estimate(large);
    const compactor = createCompactor({
      strategy: collapseMiddle(),
      budget: { ...roomyBudget, contextWindow: tokens * 5 },
      counter,
    });
    const result = await compactor.compact(large, { force: true });
    expect(result.compacted).toBe(true);
    const after = counter.count(result.messages);
    expect(after).toBeGreaterThan(tokens / 2);
    expect(after).toBeLessThan(tokens);
    expect(result.messages).toContain(task);
  });

  it('skips a history it can remove nothing from with nothing-to-compact, after a start event', async () => {
    const bare: Message[] = [system('You are a coding agent.'), user('Fix the failing test.')];
    const compactor = createCompactor({ strategy: collapseMiddle(), budget: roomyBudget, counter });
    const events: string[] = [];
    compactor.on('start', () => events.push('start'));
    compactor.on('skipped', ({ reason }) => events.push(`skipped ${reason}`));
    compactor.on('error', () => events.push('error'));
    const result = await compactor.compact(bare, { force: true });
    expect(result).toMatchObject({ compacted: false, skipped: 'nothing-to-compact' });
    expect(result.messages).toEqual(bare);
    expect(result.failures[0]).toMatchObject({ code: 'core/budget-unreachable' });
    expect(events).toEqual(['start', 'skipped nothing-to-compact']);
  });

  it('still fails over the limit when nothing can be removed', async () => {
    const bare: Message[] = [system('You are a coding agent.'), user(`Fix it. ${'detail '.repeat(400)}`)];
    const tight = { ...roomyBudget, contextWindow: Math.floor(counter.estimate(bare) * 0.8) };
    const compactor = createCompactor({ strategy: collapseMiddle(), budget: tight, counter });
    await expect(compactor.compact(bare, { force: true })).rejects.toSatisfy(
      BudgetUnreachableError.isInstance,
    );
  });

  it('leaves automatic compaction alone: force is for manual compactions', async () => {
    const { strategy, calls } = recording();
    const compactor = createCompactor({ strategy, budget: roomyBudget, counter });
    const result = await compactor.compact(history, { trigger: 'auto', force: true });
    expect(result.skipped).toBe('under-target');
    expect(calls).toHaveLength(0);
  });

  it('never throws within the limit: it compacts to fewer tokens or has nothing to compact', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 1, max: 400 }),
        async (steps, size) => {
          const messages = conversation(steps, size);
          const tokens = counter.estimate(messages);
          const compactor = createCompactor({
            strategy: collapseMiddle(),
            budget: { ...roomyBudget, contextWindow: tokens * 4 },
            counter,
          });
          const result = await compactor.compact(messages, { force: true });
          const allowed: (SkipReason | undefined)[] = [undefined, 'nothing-to-compact'];
          expect(allowed).toContain(result.skipped);
          if (result.compacted) expect(counter.count(result.messages)).toBeLessThan(tokens);
          else expect(result.messages).toEqual(messages);
        },
      ),
      { numRuns: 50 },
    );
  });
});
