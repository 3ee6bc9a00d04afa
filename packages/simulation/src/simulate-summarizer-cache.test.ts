import {
  createTokenCounter,
  type GenerateResult,
  type Message,
  type Provider,
  type Usage,
} from '@compaction/core';
import {
  createSummarization,
  defaultSummarySections,
  type SummarizerRequest,
} from '@compaction/strategy-summarization';
import { createMockProvider, generateCodingHistory } from '@compaction/testing';
import { describe, expect, it } from 'vitest';
import { createMeteredProvider } from './metered-provider.js';
import { simulate } from './simulate.js';

const history = generateCodingHistory({ messages: 120, seed: 7 });
const counter = createTokenCounter();
const budget = { contextWindow: Math.ceil(counter.count(history) * 0.6) };
// Every section the default template requires, so the summary is accepted.
const structuredSummary = defaultSummarySections.map((section) => `## ${section}\nnone`).join('\n');

function summarizer(usage?: Usage): Provider {
  const answer: GenerateResult =
    usage === undefined
      ? { text: structuredSummary, finishReason: 'stop' }
      : { text: structuredSummary, finishReason: 'stop', usage };
  return createMockProvider({ responses: Array.from({ length: 200 }, () => answer) });
}

async function run(
  summarizerRequest: SummarizerRequest,
  settings: { times?: number[]; provider?: Provider } = {},
) {
  const provider = createMeteredProvider(settings.provider ?? summarizer(), createTokenCounter());
  const result = await simulate(history, {
    strategy: createSummarization({ provider, summarizerRequest }),
    budget,
    provider,
    ...(settings.times === undefined ? {} : { times: settings.times }),
  });
  const compactions = result.steps.flatMap((step) => (step.compaction === undefined ? [] : [step]));
  expect(compactions.length).toBeGreaterThan(0);
  return { result, compactions };
}

describe('simulate: the calls a summarizer makes', () => {
  it('bills a transcript request uncached: nothing in it was sent before', async () => {
    const { result, compactions } = await run('transcript');
    for (const { compaction } of compactions) {
      expect(compaction!.billed.cacheReadTokens).toBe(0);
      expect(compaction!.billed.cacheWriteTokens).toBe(0);
      expect(compaction!.billed.uncachedInputTokens).toBe(compaction!.inputTokens);
    }
    const main = result.steps.reduce((sum, step) => sum + step.billed.uncachedInputTokens, 0);
    expect(result.totals.uncachedInputTokens).toBe(main + result.totals.compactionInputTokens);
  });

  it('bills a request that continues the conversation as a model call: the prefix the last call sent is read', async () => {
    const { result, compactions } = await run('continuation');
    for (const { step, compaction } of compactions) {
      const { billed } = compaction!;
      // What the last call sent, whole, is the prefix: the compaction runs before any message is changed.
      const sentBefore = result.steps[step - 2]!.contextTokens;
      expect(billed.cacheReadTokens).toBe(sentBefore);
      expect(billed.cacheWriteTokens).toBe(compaction!.inputTokens - sentBefore);
      expect(billed.uncachedInputTokens).toBe(0);
    }
    const transcript = await run('transcript');
    expect(result.totals.compactionCost).toBeLessThan(transcript.result.totals.compactionCost);
    // The totals add the summarizer's reads and writes to the calls'.
    const reads = result.steps.reduce(
      (sum, step) => sum + step.billed.cacheReadTokens + (step.compaction?.billed.cacheReadTokens ?? 0),
      0,
    );
    expect(result.totals.cacheReadTokens).toBe(reads);
  });

  it('reads nothing when the cache has gone cold: the continuation is written whole', async () => {
    const assistantIndexes = history.flatMap((message, index) =>
      message.role === 'assistant' ? [index] : [],
    );
    // Ten minutes between calls, twice the cache lifetime.
    const times = history.map((_: Message, index) => assistantIndexes.indexOf(index) * 600_000);
    const { compactions } = await run('continuation', { times });
    for (const { compaction } of compactions) {
      expect(compaction!.billed.cacheReadTokens).toBe(0);
      expect(compaction!.billed.cacheWriteTokens).toBe(compaction!.inputTokens);
    }
  });

  it('takes cache figures the provider reported as reported', async () => {
    const usage = { inputTokens: 5000, outputTokens: 300, cacheReadTokens: 4000, cacheWriteTokens: 600 };
    const { compactions } = await run('continuation', { provider: summarizer(usage) });
    for (const { compaction } of compactions) {
      const calls = compaction!.inputTokens / usage.inputTokens;
      expect(compaction!.billed).toEqual({
        uncachedInputTokens: 400 * calls,
        cacheReadTokens: 4000 * calls,
        cacheWriteTokens: 600 * calls,
        outputTokens: 300 * calls,
      });
    }
  });
});
