import { createTokenCounter, type Message } from '@compaction/core';
import { createSummarization, defaultSummarySections } from '@compaction/strategy-summarization';
import { createMockProvider, generateCodingHistory } from '@compaction/testing';
import { describe, expect, it } from 'vitest';
import { createMeteredProvider } from './metered-provider.js';
import { simulate } from './simulate.js';

const counter = createTokenCounter();
const summary = defaultSummarySections.map((section) => `## ${section}\nnone`).join('\n');
const shares = { reservedOutputTokens: 0, safetyMargin: 0, trigger: 0.85, target: 0.4 };

async function run(history: readonly Message[], contextWindow: number, background: boolean) {
  const answers = Array.from({ length: 200 }, () => summary);
  const provider = createMeteredProvider(createMockProvider({ responses: answers }), createTokenCounter());
  const calls = { count: 0 };
  const generate = provider.generate;
  provider.generate = (request) => {
    calls.count++;
    return generate(request);
  };
  const result = await simulate(history, {
    strategy: createSummarization({ provider }),
    budget: { contextWindow, ...shares },
    provider,
    ...(background ? { background: { prepareAt: 0.6 } } : {}),
  });
  return { result, calls: calls.count };
}

describe('simulate with background compaction', () => {
  it('bills a background compaction whose result is never used', async () => {
    const history = generateCodingHistory({ messages: 80, seed: 11 });
    // The conversation ends at 70% of the limit: past `prepareAt`, before the trigger.
    const contextWindow = Math.ceil(counter.count(history) / 0.7);
    const inLine = await run(history, contextWindow, false);
    const early = await run(history, contextWindow, true);
    expect(inLine.calls).toBe(0);
    expect(early.calls).toBe(1);
    expect(early.result.totals).toMatchObject({ compactions: 0, discardedCompactions: 1 });
    expect(early.result.totals.discardedCompactionCost).toBeGreaterThan(0);
    expect(early.result.totals.compactionCost).toBe(early.result.totals.discardedCompactionCost);
    // The requests are the same: the only difference is the summarizer call that was wasted.
    expect(early.result.totals.cost - inLine.result.totals.cost).toBeCloseTo(
      early.result.totals.discardedCompactionCost,
      12,
    );
  });

  it('uses the background results at the trigger, and bills every summarizer call made', async () => {
    const history = generateCodingHistory({ messages: 160, seed: 5 });
    const contextWindow = Math.ceil(counter.count(history) / 2.5);
    const { result, calls } = await run(history, contextWindow, true);
    expect(result.totals.compactions).toBeGreaterThan(0);
    expect(result.totals.overLimitSteps).toBe(0);
    const used = result.steps.flatMap((step) => (step.compaction === undefined ? [] : [step.compaction]));
    const usedCalls = used.reduce((sum, compaction) => sum + compaction.inputTokens, 0);
    expect(result.totals.compactionInputTokens).toBeGreaterThanOrEqual(usedCalls);
    expect(calls).toBeGreaterThanOrEqual(result.totals.compactions);
    const stepsCost = result.steps.reduce((sum, step) => sum + step.cost, 0);
    expect(result.totals.cost).toBeCloseTo(stepsCost + result.totals.compactionCost, 12);
  });
});
