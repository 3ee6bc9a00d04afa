import { createPipeline } from '@compaction/core';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { checkConformanceProperty } from '@compaction/testing';
import { describeConformance, describeTranscriptPlans } from '@compaction/testing/vitest';
import { expect, it } from 'vitest';
import { createSlidingWindow } from './sliding-window.js';

describeConformance('sliding-window', { strategy: () => createSlidingWindow() });
describeConformance('sliding-window with a 300-token window, without the original task or markers', {
  strategy: () => createSlidingWindow({ windowTokens: 300, keepOriginalTask: false, marker: false }),
});

// The plan pinned as the Compactor pins it (keeps-the-plan above), on the real transcripts too.
describeTranscriptPlans('sliding-window', createSlidingWindow());

// The offline default of the CLI and the server: old tool results shortened, then the newest turns that fit.
const defaultPipeline = () => createPipeline([createToolResultTruncation(), createSlidingWindow()]);
it('the default pipeline (tool-result-truncation, sliding-window) keeps the plan', async () => {
  const outcome = await checkConformanceProperty('keeps-the-plan', { strategy: defaultPipeline });
  expect(outcome.failure, outcome.failure).toBeUndefined();
});
describeTranscriptPlans('the default pipeline (tool-result-truncation, sliding-window)', defaultPipeline());
