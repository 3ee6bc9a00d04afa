import { createMockProvider } from '@compaction/testing';
import { describeConformance } from '@compaction/testing/vitest';
import { summarizingProvider } from './__fixtures__/summaries.js';
import { createSummarization } from './create-summarization.js';

describeConformance('summarization', {
  strategy: () => createSummarization({ provider: summarizingProvider() }),
});

describeConformance('summarization (assistant-after-task placement)', {
  strategy: () => createSummarization({ provider: summarizingProvider(), placement: 'assistant-after-task' }),
  numRuns: 300,
});

describeConformance('summarization (summarizer always failing, extractive fallback)', {
  strategy: () =>
    createSummarization({
      provider: createMockProvider({ responses: Array.from({ length: 5000 }, () => new Error('503')) }),
    }),
  numRuns: 300,
});
