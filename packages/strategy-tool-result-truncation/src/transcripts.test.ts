import { createTokenCounter, verifyCompaction } from '@compaction/core';
import { loadTranscripts, missingTranscriptsMessage } from '@compaction/testing/transcripts';
import { describe, expect, it } from 'vitest';
import { createToolResultTruncation } from './tool-result-truncation.js';

const transcripts = loadTranscripts();

/**
 * Truncation keeps every message, so on transcripts whose size is mostly prose it cannot reach low targets
 * alone (that is what a pipeline with `sliding-window` is for). So: at 50%, 25% and 10% of each
 * transcript's size, the result keeps every rule and is at or under the target, or else it has shortened
 * everything it may: a second run finds nothing left to shorten.
 */
describe.skipIf(transcripts.length === 0)('tool-result-truncation on the real transcripts', () => {
  for (const mode of ['truncate', 'mask'] as const) {
    it.each(transcripts.map((transcript) => [transcript.name, transcript] as const))(
      `${mode}: %s at 50%, 25% and 10% of its size`,
      async (_, transcript) => {
        const strategy = createToolResultTruncation({ mode });
        const counter = createTokenCounter();
        const total = counter.estimate(transcript.messages);
        for (const share of [0.5, 0.25, 0.1]) {
          const budget = { limit: total, target: Math.floor(total * share) };
          const input = { counter, budget, trigger: 'auto', round: 1 } as const;
          const output = await strategy.compact({ ...input, messages: transcript.messages });
          const violations = verifyCompaction({
            before: transcript.messages,
            after: output.messages,
            counter,
            limit: budget.limit,
          });
          expect(violations).toEqual([]);
          if (counter.estimate(output.messages) > budget.target) {
            const again = await strategy.compact({ ...input, messages: output.messages });
            expect(again.details?.shortenedResults).toBe(0);
          }
        }
      },
    );
  }
});
if (transcripts.length === 0)
  it.skip(`tool-result-truncation on the real transcripts: ${missingTranscriptsMessage}`, () => {});
