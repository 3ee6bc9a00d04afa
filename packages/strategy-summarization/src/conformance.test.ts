import {
  createMockProvider,
  defaultConformanceRuns,
  type FloorOf,
  protectedTokens,
} from '@compaction/testing';
import { describeConformance, describeTranscriptPlans } from '@compaction/testing/vitest';
import { summarizingProvider } from './__fixtures__/summaries.js';
import { createSummarization } from './create-summarization.js';

/**
 * The summary takes the place of a removal marker, and needs more room than one: its header, longer when it
 * names the recall handle of the summarized messages.
 */
const floor: FloorOf = (messages, counter, settings) =>
  protectedTokens(messages, counter, settings) + (settings?.archive === true ? 100 : 64);

/**
 * The variants run 300 cases per property, fewer than the main suite; on the Node 22 compatibility run
 * (`CONFORMANCE_RUNS=100`, scripts/test-node-22.sh) they run no more than the main suite does there.
 */
const variantRuns = Math.min(300, defaultConformanceRuns);

describeConformance('summarization', {
  strategy: () => createSummarization({ provider: summarizingProvider() }),
  floor,
});

describeConformance('summarization (assistant-after-task placement)', {
  strategy: () => createSummarization({ provider: summarizingProvider(), placement: 'assistant-after-task' }),
  numRuns: variantRuns,
  floor,
});

describeConformance('summarization (summarizer always failing, extractive fallback)', {
  strategy: () =>
    createSummarization({
      provider: createMockProvider({ responses: Array.from({ length: 5000 }, () => new Error('503')) }),
    }),
  numRuns: variantRuns,
  floor,
});

describeConformance('summarization (the summary asked in the conversation itself)', {
  strategy: () => createSummarization({ provider: summarizingProvider(), summarizerRequest: 'continuation' }),
  numRuns: variantRuns,
  floor,
});

// The plan pinned as the Compactor pins it (keeps-the-plan above), on the real transcripts too.
describeTranscriptPlans('summarization', createSummarization({ provider: summarizingProvider() }), { floor });
