import { recallRoundTrip } from '@compaction/testing';
import { describe, expect, it } from 'vitest';
import { createToolResultTruncation } from './tool-result-truncation.js';

describe('tool-result-truncation (masking) with archive', () => {
  it('names handles that recall exactly what it removed or shortened, over two rounds', async () => {
    const { rounds, lookup } = await recallRoundTrip(
      createToolResultTruncation({ mode: 'mask', keepRecent: 2, clearToolInputs: true, maxResultTokens: 5 }),
    );
    for (const round of rounds) {
      expect(round.result.event?.usedFallback).toBe(false);
      expect(round.expected.size).toBeGreaterThan(0);
      expect(round.recalled).toEqual(round.expected);
      expect(round.result.archived?.map((item) => item.handle)).toEqual(
        expect.arrayContaining([...round.expected.keys()]),
      );
    }
    // The first round's handles are still found after the second, in the same session.
    for (const [handle, text] of rounds[0]!.expected) expect(await lookup(handle)).toBe(text);
  });
});
