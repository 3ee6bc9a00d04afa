import { createPipeline } from '@compaction/core';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { expectedRecalls, recallRoundTrip } from '@compaction/testing';
import { describe, expect, it } from 'vitest';
import { createSlidingWindow } from './sliding-window.js';

describe('a pipeline of masking and sliding-window with archive', () => {
  it('names handles that recall exactly what each stage removed, over two rounds', async () => {
    const masking = () => createToolResultTruncation({ mode: 'mask', keepRecent: 8 });
    const { rounds } = await recallRoundTrip(createPipeline([masking(), createSlidingWindow()]), {
      // The window removes what masking left: its markers recall the masked messages, and the placeholders in
      // them recall the original results.
      expect: async (before, after, input) => {
        const masked = await masking().compact({
          messages: before,
          trigger: 'auto',
          archive: true,
          ...input,
        });
        return new Map([
          ...expectedRecalls(before, masked.messages),
          ...expectedRecalls(masked.messages, after),
        ]);
      },
    });
    for (const round of rounds) {
      expect(round.result.event?.usedFallback).toBe(false);
      const stages = (round.result.event?.details as { stages?: unknown[] } | undefined)?.stages;
      expect(stages).toHaveLength(2);
      expect(round.recalled).toEqual(round.expected);
      // Some marker recalls a transcript that names masked results: recall reaches through both stages.
      const texts = [...round.expected.values()];
      expect(
        texts.some((text) =>
          [...round.expected.keys()].some((handle) => text.includes(`recall "${handle}"`)),
        ),
      ).toBe(true);
    }
  });
});
