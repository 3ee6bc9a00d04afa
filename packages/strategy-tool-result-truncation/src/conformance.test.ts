import { describeConformance } from '@compaction/testing/vitest';
import { createToolResultTruncation } from './tool-result-truncation.js';

describeConformance('tool-result-truncation', { strategy: () => createToolResultTruncation() });
describeConformance('tool-result-truncation masking every result and clearing inputs', {
  strategy: () =>
    createToolResultTruncation({ mode: 'mask', keepRecent: 0, maxResultTokens: 10, clearToolInputs: true }),
});
