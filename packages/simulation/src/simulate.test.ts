import {
  type CompactionStrategy,
  createPipeline,
  createTokenCounter,
  isPinned,
  type Message,
  type Provider,
} from '@compaction/core';
import { createSlidingWindow } from '@compaction/strategy-sliding-window';
import { createMockProvider, generateCodingHistory } from '@compaction/testing';
import { withPlanTurns } from '@compaction/testing/vitest';
import { describe, expect, it } from 'vitest';
import { createMeteredProvider } from './metered-provider.js';
import { costOf, defaultPriceModel } from './price-model.js';
import { type SimulationResult, simulate } from './simulate.js';

const history = generateCodingHistory({ messages: 120, seed: 3 });
const slidingWindow = createSlidingWindow();
const assistantTurns = history.filter((message, index) => message.role === 'assistant' && index > 0).length;

describe('simulate', () => {
  it('bills the whole context at each assistant turn, with prompt caching of the repeated prefix', async () => {
    const result = await simulate(history, {
      strategy: slidingWindow,
      budget: { contextWindow: 10_000_000 },
    });
    expect(result.steps).toHaveLength(assistantTurns);
    expect(result.totals.compactions).toBe(0);
    for (const step of result.steps) {
      const sent = history.slice(0, step.messageIndex);
      expect(step.contextTokens).toBe(step.uncompactedTokens);
      expect(step.contextMessages).toBe(sent.length);
      expect(step.billed.cacheReadTokens + step.billed.cacheWriteTokens).toBe(step.contextTokens);
      expect(step.billed.outputTokens).toBeGreaterThan(0);
      expect(step.cost).toBeCloseTo(costOf(step.billed, defaultPriceModel), 12);
    }
    // Only the first call writes its whole context; later calls read the previous call's context.
    const [first, second] = result.steps;
    expect(first!.billed.cacheReadTokens).toBe(0);
    expect(second!.billed.cacheReadTokens).toBe(first!.contextTokens);
    expect(result.totals).toMatchObject({
      inputTokens: result.baseline.inputTokens,
      cacheReadTokens: result.baseline.cacheReadTokens,
      cost: result.baseline.cost,
    });
  });

  it('names each compaction by its strategy, or by the stages a pipeline ran', async () => {
    // A first stage that removes nothing, so the pipeline runs its second stage too.
    const keepAll: CompactionStrategy = {
      specificationVersion: 'v1',
      name: 'keep-all',
      compact: async ({ messages }) => ({ messages: [...messages] }),
    };
    const alone = await simulate(history, { strategy: slidingWindow, budget: { contextWindow: 24_000 } });
    const piped = await simulate(history, {
      strategy: createPipeline([keepAll, slidingWindow]),
      budget: { contextWindow: 24_000 },
    });
    const names = (result: SimulationResult) =>
      new Set(
        result.steps.flatMap((step) => (step.compaction === undefined ? [] : [step.compaction.strategy])),
      );
    expect(names(alone)).toEqual(new Set(['sliding-window']));
    expect(names(piped)).toEqual(new Set(['keep-all → sliding-window']));
  });

  it('bills every input token at the input price without caching', async () => {
    const result = await simulate(history, {
      strategy: slidingWindow,
      budget: { contextWindow: 10_000_000 },
      prices: { caching: false },
    });
    expect(result.totals.cacheReadTokens).toBe(0);
    expect(result.totals.uncachedInputTokens).toBe(result.totals.inputTokens);
  });

  it('compacts when the trigger fires, keeps every call under the limit, and sends less', async () => {
    const result = await simulate(history, { strategy: slidingWindow, budget: { contextWindow: 24_000 } });
    expect(result.totals.compactions).toBeGreaterThan(0);
    expect(result.steps.filter((step) => step.compaction !== undefined)).toHaveLength(
      result.totals.compactions,
    );
    for (const step of result.steps) {
      expect(step.contextTokens).toBeLessThanOrEqual(result.limit);
      if (step.compaction) expect(step.compaction.tokensBefore).toBeGreaterThan(result.trigger!);
    }
    expect(result.totals.peakContextTokens).toBeLessThanOrEqual(result.limit);
    expect(result.baseline.overLimitSteps).toBeGreaterThan(0);
    expect(result.totals.inputTokens).toBeLessThan(result.baseline.inputTokens);
    // After a compaction the prefix is rewritten: that call reads less from the cache than it sends.
    const compacted = result.steps.find((step) => step.compaction !== undefined)!;
    expect(compacted.billed.cacheWriteTokens).toBeGreaterThan(0);
    const again = await simulate(history, { strategy: slidingWindow, budget: { contextWindow: 24_000 } });
    expect(again.steps.map((step) => step.contextTokens)).toEqual(
      result.steps.map((step) => step.contextTokens),
    );
  });

  it('bills the model calls of a summarizing strategy as the cost of compaction', async () => {
    const mock = createMockProvider({
      responses: Array.from({ length: 100 }, () => 'Summary of the earlier work.'),
    });
    const metered = createMeteredProvider(mock as Provider, createTokenCounter());
    const summarizing = {
      specificationVersion: 'v1' as const,
      name: 'summarize-head',
      async compact(input: { messages: readonly Message[] }) {
        const result = await metered.generate({ messages: [...input.messages] });
        const keep = input.messages.slice(-4);
        const head = input.messages.filter((message) => message.role === 'system');
        return {
          messages: [
            ...head,
            {
              role: 'user' as const,
              content: [{ type: 'text' as const, text: result.text }],
              metadata: { compaction: { kind: 'summary', round: 1, strategy: 'summarize-head' } },
            },
            ...keep,
          ],
        };
      },
    };
    const result = await simulate(history, {
      strategy: createPipeline([summarizing]),
      fallback: slidingWindow,
      budget: { contextWindow: 24_000 },
      provider: metered,
    });
    expect(result.totals.compactions).toBeGreaterThan(0);
    const withCalls = result.steps.filter((step) => (step.compaction?.inputTokens ?? 0) > 0);
    expect(withCalls.length).toBeGreaterThan(0);
    expect(result.totals.compactionCost).toBeGreaterThan(0);
    expect(result.totals.compactionInputTokens).toBe(
      result.steps.reduce((total, step) => total + (step.compaction?.inputTokens ?? 0), 0),
    );
    expect(result.totals.compactionInputTokens).toBe(
      mock.requests.reduce((total, request) => total + createTokenCounter().estimate(request.messages), 0),
    );
    expect(result.totals.cost).toBeCloseTo(
      result.steps.reduce((total, step) => total + step.cost + (step.compaction?.cost ?? 0), 0),
      9,
    );
  });
});

describe('simulate with the agent plan', () => {
  it('pins the latest plan call before the strategy runs, unless planTools is false', async () => {
    const planned = withPlanTurns(history);
    const run = async (planTools?: false) => {
      // What the strategy is given: whether the plan's call reached it pinned.
      const seen: boolean[] = [];
      const strategy: CompactionStrategy = {
        specificationVersion: 'v1',
        name: 'recording-sliding-window',
        compact: (input) => {
          const call = input.messages.find((message) =>
            message.content.some((part) => part.type === 'tool-call' && part.toolName === 'TodoWrite'),
          );
          seen.push(call !== undefined && isPinned(call));
          return slidingWindow.compact(input);
        },
      };
      await simulate(planned, {
        strategy,
        budget: { contextWindow: 12_000 },
        ...(planTools === undefined ? {} : { planTools }),
      });
      return seen;
    };
    const [pinned, unpinned] = await Promise.all([run(), run(false)]);
    expect(pinned.length).toBeGreaterThan(0);
    expect(pinned.some(Boolean)).toBe(true);
    expect(unpinned.some(Boolean)).toBe(false);
  });
});
