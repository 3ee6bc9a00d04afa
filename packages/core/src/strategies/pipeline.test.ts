import { describe, expect, it } from 'vitest';
import { conversation } from '../__fixtures__/messages.js';
import { BudgetUnreachableError } from '../errors/budget-unreachable-error.js';
import { withCompactionMetadata } from '../messages/compaction-metadata.js';
import type { CompactionStrategy } from '../specs/compaction-strategy-v1.js';
import { TokenCounter } from '../tokens/token-counter.js';
import { createPipeline } from './pipeline.js';

/** Shortens every tool result to `size` characters. */
const shorten = (size: number, calls: string[]): CompactionStrategy => ({
  specificationVersion: 'v1',
  name: `shorten-${size}`,
  async compact({ messages }) {
    calls.push(`shorten-${size}`);
    return {
      messages: messages.map((message) =>
        message.role === 'tool'
          ? withCompactionMetadata(
              { ...message, content: message.content.map((part) => ({ ...part, output: 'y'.repeat(size) })) },
              { kind: 'modified' },
            )
          : message,
      ),
    };
  },
});

describe('createPipeline', () => {
  const messages = conversation(10, 1000);
  const counter = new TokenCounter();
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
        const output = await shorten(400, calls).compact(input);
        if (counter.estimate(output.messages) > input.budget.limit)
          throw new BudgetUnreachableError({ tokens: 0, limit: 0, reason: 'x' });
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
    expect(calls).toEqual(['shorten-400', 'shorten-10']);
    expect(output.details?.stages).toHaveLength(2);
  });

  it('throws BudgetUnreachableError when the stages cannot reach the limit', async () => {
    const pipeline = createPipeline([shorten(900, [])]);
    await expect(
      pipeline.compact({ messages, counter, budget: { limit: 10, target: 5 }, trigger: 'auto', round: 1 }),
    ).rejects.toThrow(BudgetUnreachableError);
  });
});
