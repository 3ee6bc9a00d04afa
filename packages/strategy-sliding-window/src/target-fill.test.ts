import { createPipeline } from '@compaction/core';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { describeTargetFill } from '@compaction/testing/vitest';
import { createSlidingWindow } from './sliding-window.js';

describeTargetFill('sliding-window', { strategy: () => createSlidingWindow() });
describeTargetFill('sliding-window without markers', {
  strategy: () => createSlidingWindow({ marker: false }),
});
describeTargetFill('a pipeline of tool-result-truncation and sliding-window', {
  strategy: () => createPipeline([createToolResultTruncation(), createSlidingWindow()]),
});
describeTargetFill('sliding-window', { strategy: () => createSlidingWindow(), archive: true, numRuns: 100 });
describeTargetFill('a pipeline of tool-result-truncation and sliding-window', {
  strategy: () => createPipeline([createToolResultTruncation(), createSlidingWindow()]),
  archive: true,
  numRuns: 100,
});
