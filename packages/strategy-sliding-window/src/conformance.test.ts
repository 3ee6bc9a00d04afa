import { describeConformance } from '@compaction/testing/vitest';
import { createSlidingWindow } from './sliding-window.js';

describeConformance('sliding-window', { strategy: () => createSlidingWindow() });
describeConformance('sliding-window with a 300-token window, without the original task or markers', {
  strategy: () => createSlidingWindow({ windowTokens: 300, keepOriginalTask: false, marker: false }),
});
