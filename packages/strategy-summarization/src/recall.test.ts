import { createMockProvider, recallRoundTrip } from '@compaction/testing';
import { describe, expect, it } from 'vitest';
import { summarizingProvider } from './__fixtures__/summaries.js';
import { createSummarization } from './create-summarization.js';

describe('summarization with archive', () => {
  const cases = {
    'a summary': () => createSummarization({ provider: summarizingProvider() }),
    'the extractive fallback': () =>
      createSummarization({
        provider: createMockProvider({ responses: Array.from({ length: 10 }, () => new Error('503')) }),
      }),
  };
  for (const [name, strategy] of Object.entries(cases)) {
    it(`names in ${name} a handle that recalls exactly the messages it replaced, over two rounds`, async () => {
      const { rounds, lookup } = await recallRoundTrip(strategy());
      for (const round of rounds) {
        expect(round.result.event?.usedFallback).toBe(false);
        expect(round.expected.size).toBeGreaterThan(0);
        expect(round.recalled).toEqual(round.expected);
      }
      // The second summary replaced the first: its span's transcript holds the first summary, whose handle
      // still recalls the first span.
      const [first, second] = rounds;
      const firstSpan = [...first!.expected.keys()];
      expect(
        [...second!.expected.values()].some((text) => firstSpan.some((handle) => text.includes(handle))),
      ).toBe(true);
      for (const [handle, text] of first!.expected) expect(await lookup(handle)).toBe(text);
    });
  }
});
