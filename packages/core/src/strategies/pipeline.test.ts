import { describe, expect, it } from 'vitest';
import { conversation } from '../__fixtures__/messages.js';
import { BudgetUnreachableError } from '../errors/budget-unreachable-error.js';
import { withCompactionMetadata } from '../messages/compaction-metadata.js';
import type { CompactionStrategy } from '../specs/compaction-strategy-v1.js';
import { createTokenCounter } from '../tokens/token-counter.js';
import { createPipeline } from './pipeline.js';

/** Shortens every tool result to `size` characters of the fixture's own letter, so tokens fall with characters. */
const shorten = (size: number, calls: string[]): CompactionStrategy => ({
  specificationVersion: 'v1',
  name: `shorten-${size}`,
  async compact({ messages }) {
    calls.push(`shorten-${size}`);
    return {
      messages: messages.map((message) =>
        message.role === 'tool'
          ? withCompactionMetadata(
              { ...message, content: message.content.map((part) => ({ ...part, output: 'x'.repeat(size) })) },
              { kind: 'modified' },
            )
          : message,
      ),
    };
  },
});

describe('createPipeline', () => {
  const messages = conversation(10, 1000);
  const counter = createTokenCounter();
  const total = counter.estimate(messages);

  it('runs stages in order and stops as soon as the target is met', async () => {
    const calls: string[] = [];
    const pipeline = createPipeline([shorten(100, calls), shorten(10, calls)]);
    const output = await pipeline.compact({
      messages,
      counter,
      budget: { limit: total, target: total / 2 },
      trigger: 'auto',
      round: 1,
    });
    expect(calls).toEqual(['shorten-100']);
    expect(counter.estimate(output.messages)).toBeLessThanOrEqual(total / 2);
    expect(output.details?.stages).toHaveLength(1);
  });

  it('runs the next stage while still over the target', async () => {
    const calls: string[] = [];
    const pipeline = createPipeline([shorten(900, calls), shorten(10, calls)]);
    await pipeline.compact({
      messages,
      counter,
      budget: { limit: total, target: total / 3 },
      trigger: 'auto',
      round: 1,
    });
    expect(calls).toEqual(['shorten-900', 'shorten-10']);
  });

  it('passes an earlier stage its progress on even when that stage alone cannot meet the limit', async () => {
    const calls: string[] = [];
    // Throws unless given room: as a stage that must meet a limit it cannot reach would.
    const strict: CompactionStrategy = {
      specificationVersion: 'v1',
      name: 'strict',
      async compact(input) {
        const output = await shorten(800, calls).compact(input);
        if (counter.estimate(output.messages) > input.budget.limit)
          throw new BudgetUnreachableError({ target: input.budget.target, best: 0, reason: 'x' });
        return output;
      },
    };
    const pipeline = createPipeline([strict, shorten(10, calls)]);
    const output = await pipeline.compact({
      messages,
      counter,
      budget: { limit: total * 0.5, target: total * 0.45 },
      trigger: 'auto',
      round: 1,
    });
    expect(calls).toEqual(['shorten-800', 'shorten-10']);
    expect(output.details?.stages).toHaveLength(2);
  });

  it('throws BudgetUnreachableError with its target and the best the stages reached', async () => {
    const pipeline = createPipeline([shorten(900, [])]);
    const error = await pipeline
      .compact({ messages, counter, budget: { limit: 10, target: 5 }, trigger: 'auto', round: 1 })
      .catch((caught: unknown) => caught);
    expect(BudgetUnreachableError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ target: 5, limit: 10 });
    expect((error as BudgetUnreachableError).best).toBeLessThan(total);
    expect((error as BudgetUnreachableError).best).toBeGreaterThan(10);
  });

  const thrown: unknown[] = [];
  const failing = (best: number): CompactionStrategy => ({
    specificationVersion: 'v1',
    name: 'failing',
    async compact({ budget }) {
      const error = new BudgetUnreachableError({ target: budget.target, best, limit: budget.limit });
      thrown.push(error);
      throw error;
    },
  });

  it("passes the last stage's BudgetUnreachableError on unchanged when it came lowest", async () => {
    const error = await createPipeline([shorten(900, []), failing(20)])
      .compact({ messages, counter, budget: { limit: 10, target: 5 }, trigger: 'auto', round: 1 })
      .catch((caught: unknown) => caught);
    expect(error).toBe(thrown.at(-1));
    expect(error).toMatchObject({ target: 5, best: 20, limit: 10 });
    const higher = await createPipeline([shorten(900, []), failing(total * 10)])
      .compact({ messages, counter, budget: { limit: 10, target: 5 }, trigger: 'auto', round: 1 })
      .then(
        () => undefined,
        (caught: unknown) => caught as BudgetUnreachableError,
      );
    // The earlier stage got lower than the last one: its count is the best.
    expect(higher?.best).toBeLessThan(total);
    expect(higher?.cause).toMatchObject({ best: total * 10 });
  });

  it("keeps the earlier stages' result when the last stage fails but the limit is already met", async () => {
    const output = await createPipeline([shorten(100, []), failing(0)]).compact({
      messages,
      counter,
      budget: { limit: total, target: 1 },
      trigger: 'auto',
      round: 1,
    });
    expect(output.details?.stages).toHaveLength(1);
    expect(counter.estimate(output.messages)).toBeLessThan(total / 2);
  });
});
