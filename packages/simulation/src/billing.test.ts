import { createTokenCounter, type Message } from '@compaction/core';
import { generateCodingHistory } from '@compaction/testing';
import { describe, expect, it } from 'vitest';
import { billRun } from './billing.js';
import { costOf, defaultPriceModel } from './price-model.js';

const counter = createTokenCounter();
const history = generateCodingHistory({ messages: 30, seed: 9 });

describe('billRun', () => {
  it('bills each request against the one before for the cached prefix, and every summarizer call uncached', () => {
    const first = history.slice(0, 10);
    const second = history.slice(0, 20);
    const rewritten: Message[] = [history[0]!, ...structuredClone(history.slice(1, 20))];
    const summarizerCall = { messages: structuredClone(first), inputTokens: 500, outputTokens: 100 };
    const bill = billRun(
      [
        { messages: first, outputTokens: 10 },
        { messages: second, outputTokens: 20 },
        { messages: rewritten, outputTokens: 30 },
      ],
      [summarizerCall, summarizerCall],
      counter,
      defaultPriceModel,
    );
    const tokens = (messages: readonly Message[]) => counter.estimate(messages);
    expect(bill.requests.inputTokens).toBe(tokens(first) + tokens(second) + tokens(rewritten));
    // Read: the first request's messages, then only the first message of the rewritten history.
    expect(bill.requests.cacheReadTokens).toBe(tokens(first) + tokens(history.slice(0, 1)));
    expect(bill.requests.cacheWriteTokens + bill.requests.cacheReadTokens).toBe(bill.requests.inputTokens);
    expect(bill.requests.outputTokens).toBe(60);
    expect(bill.summarizer).toMatchObject({
      calls: 2,
      inputTokens: 1000,
      uncachedInputTokens: 1000,
      cacheReadTokens: 0,
      outputTokens: 200,
    });
    expect(bill.summarizer.cost).toBeCloseTo(costOf(bill.summarizer, defaultPriceModel), 12);
    expect(bill.cost).toBeCloseTo(bill.requests.cost + bill.summarizer.cost, 12);
  });
});
