import type { FloorOf } from '@compaction/testing';
import { describeConformance, describeTranscriptPlans } from '@compaction/testing/vitest';
import { createToolResultTruncation } from './tool-result-truncation.js';

/**
 * Truncation keeps every message and leaves the newest and the small results alone, so it promises no
 * target below the whole history; target-fill.test.ts checks how far it gets.
 */
const keepsEveryMessage: FloorOf = (messages, counter) => counter.estimate(messages);

describeConformance('tool-result-truncation', {
  strategy: () => createToolResultTruncation(),
  floor: keepsEveryMessage,
});
describeConformance('tool-result-truncation masking every result and clearing inputs', {
  strategy: () =>
    createToolResultTruncation({ mode: 'mask', keepRecent: 0, maxResultTokens: 10, clearToolInputs: true }),
  floor: keepsEveryMessage,
});

// The plan pinned as the Compactor pins it (keeps-the-plan above), on the real transcripts too.
describeTranscriptPlans('tool-result-truncation', createToolResultTruncation(), { floor: keepsEveryMessage });
