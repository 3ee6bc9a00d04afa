import type { CompactionTriggerPolicy, Message } from '@compaction/core';
import { createSlidingWindow } from '@compaction/strategy-sliding-window';
import { generateCodingHistory } from '@compaction/testing';
import { describe, expect, it } from 'vitest';
import { simulate } from './simulate.js';

const history = generateCodingHistory({ messages: 60, seed: 5 });
const slidingWindow = createSlidingWindow();
const unlimited = { contextWindow: 10_000_000 };
const answers = history.flatMap((message, index) =>
  message.role === 'assistant' && index > 0 ? [index] : [],
);

describe('simulate: cache lifetime, call times, trigger policy and ingestion', () => {
  it('a call made after the cache lifetime reads nothing and writes its whole context again', async () => {
    const times = history.map(() => undefined as number | undefined);
    // Every call 10 s apart, but the fourth comes 6 minutes after the third.
    answers.forEach((index, call) => {
      times[index] = call * 10_000 + (call >= 3 ? 360_000 : 0);
    });
    const result = await simulate(history, { strategy: slidingWindow, budget: unlimited, times });
    const cold = result.steps[3]!;
    expect(cold.billed.cacheReadTokens).toBe(0);
    expect(cold.billed.cacheWriteTokens).toBe(cold.contextTokens);
    expect(result.steps[4]!.billed.cacheReadTokens).toBe(cold.contextTokens);
    const warm = await simulate(history, { strategy: slidingWindow, budget: unlimited });
    expect(warm.steps[3]!.billed.cacheReadTokens).toBeGreaterThan(0);
    expect(result.baseline.cacheWriteTokens).toBeGreaterThan(warm.baseline.cacheWriteTokens);
    // Without recorded times, calls 30 s apart outlive a 20-second cache.
    const short = await simulate(history, {
      strategy: slidingWindow,
      budget: unlimited,
      prices: { cacheLifetimeSeconds: 20 },
    });
    expect(short.totals.cacheReadTokens).toBe(0);
  });

  it('builds the trigger policy on the replay clock and asks it before each call', async () => {
    const seen: number[] = [];
    const triggerPolicy = (now: () => number): CompactionTriggerPolicy => ({
      name: 'recording',
      decide: () => ({ compact: false }),
      sent: () => void seen.push(now()),
    });
    const times = history.map((_, index) => index * 1000);
    await simulate(history, { strategy: slidingWindow, budget: unlimited, times, triggerPolicy });
    expect(seen).toEqual(answers.map((index) => index * 1000));
  });

  it('ingests each message before it is first sent; the run without compaction sends them as they are', async () => {
    const ingested = new Set<Message>();
    const ingest = (message: Message): Message => {
      if (message.role !== 'tool') return message;
      const shortened = {
        ...message,
        content: message.content.map((part) => ({ ...part, output: 'short' })),
      };
      ingested.add(shortened);
      return shortened;
    };
    const result = await simulate(history, { strategy: slidingWindow, budget: unlimited, ingest });
    expect(ingested.size).toBe(history.filter((message) => message.role === 'tool').length);
    expect(result.totals.inputTokens).toBeLessThan(result.baseline.inputTokens);
    expect(result.totals.cacheWriteTokens).toBeLessThan(result.baseline.cacheWriteTokens);
  });
});
