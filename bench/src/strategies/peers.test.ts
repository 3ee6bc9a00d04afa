import { createTokenCounter } from '@compaction/core';
import { generateCodingHistory } from '@compaction/testing';
import { describe, expect, it } from 'vitest';
import { fromModelMessages, pruneWithAiSdk, toModelMessages } from './ai-sdk-peer.js';
import { fromLangChain, toLangChain, trimWithLangChain } from './langchain-peer.js';
import { outputProblems } from './output-problems.js';
import { smallestTrim } from './reach.js';

const history = generateCodingHistory({ messages: 400 });
const tokens = createTokenCounter().count(history);

describe('the trimMessages peer', () => {
  it('counts the copies trimMessages makes, so it trims to the target', async () => {
    const converted = toLangChain(history);
    const target = Math.floor(tokens / 2);
    const kept = fromLangChain(converted, await trimWithLangChain(converted, createTokenCounter(), target));
    expect(kept.length).toBeLessThan(history.length);
    // Within the target and valid for the provider; trimMessages keeps the system prompt and the newest
    // messages only, so the task that opened the conversation is gone, which the opening rule reports.
    expect(outputProblems(history, kept, target).map((problem) => problem.split(':')[0])).toEqual([
      'opening-kept',
    ]);
    expect(createTokenCounter().count(kept)).toBeGreaterThan(smallestTrim(history) - 1);
  });

  it('gives back the original message objects it kept whole', async () => {
    const converted = toLangChain(history);
    const kept = fromLangChain(converted, await trimWithLangChain(converted, createTokenCounter(), tokens));
    expect(kept).toEqual(history);
    for (const [index, message] of kept.entries()) expect(message).toBe(history[index]);
  });
});

describe('the pruneMessages peer', () => {
  it('converts its output back to a valid history without the old tool results', () => {
    const converted = toModelMessages(history);
    const kept = fromModelMessages(history, converted, pruneWithAiSdk(converted, 6));
    expect(outputProblems(history, kept, tokens)).toEqual([]);
    const results = (messages: typeof history) =>
      messages.filter((message) => message.role === 'tool').length;
    expect(results(kept)).toBeLessThan(results(history));
  });
});

describe('outputProblems', () => {
  it('refuses an output over the target', () => {
    expect(outputProblems(history, history, tokens - 1)).toEqual([
      `within-limit: ${tokens} tokens is over the limit of ${tokens - 1}`,
    ]);
  });

  it('refuses an output that lost the newest user request', () => {
    const problems = outputProblems(history, history.slice(0, 2), tokens);
    expect(problems.some((problem) => problem.startsWith('latest-user-kept'))).toBe(true);
  });
});
