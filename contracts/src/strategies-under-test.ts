import {
  type CompactionStrategy,
  createPipeline,
  createStrategyRegistry,
  resolveCompactionConfig,
  type StrategyConfig,
} from '@compaction/core';
import { createPruning } from '@compaction/strategy-pruning';
import slidingWindow, { createSlidingWindow } from '@compaction/strategy-sliding-window';
import summarization, { createSummarization } from '@compaction/strategy-summarization';
import toolResultTruncation, {
  createToolResultTruncation,
} from '@compaction/strategy-tool-result-truncation';
import { createMockProvider } from '@compaction/testing';

/** A strategy the contract check runs, with the fallback it runs with, if any. */
export interface StrategyUnderTest {
  name: string;
  strategy: () => CompactionStrategy | Promise<CompactionStrategy>;
  fallback?: () => CompactionStrategy | Promise<CompactionStrategy>;
}

/** A summarizer that always answers: the summary's wording does not matter to the contract. */
function summarizer() {
  return createMockProvider({
    responses: Array.from({ length: 1000 }, () => () => '## Progress\nThe agent worked on the task.'),
  });
}

const registry = createStrategyRegistry({
  definitions: [toolResultTruncation, slidingWindow, summarization],
});

async function fromConfig(strategy: StrategyConfig | StrategyConfig[]): Promise<CompactionStrategy> {
  return (await resolveCompactionConfig({ strategy }, registry, { provider: summarizer() })).strategy;
}

/** Every bundled strategy, in its default and its notable modes, and the CLI's default pipeline. */
export const strategiesUnderTest: readonly StrategyUnderTest[] = [
  { name: 'tool-result-truncation', strategy: () => createToolResultTruncation() },
  { name: 'tool-result-truncation (mask)', strategy: () => createToolResultTruncation({ mode: 'mask' }) },
  { name: 'pruning', strategy: () => createPruning() },
  {
    name: 'pruning (no task, no recent turns, no markers)',
    strategy: () => createPruning({ keepOriginalTask: false, minRecentTurns: 0, marker: false }),
  },
  { name: 'sliding-window', strategy: () => createSlidingWindow() },
  { name: 'summarization', strategy: () => createSummarization({ provider: summarizer() }) },
  {
    name: 'summarization (summary after the task)',
    strategy: () => createSummarization({ provider: summarizer(), placement: 'assistant-after-task' }),
  },
  {
    // The evaluation's cheapest policy at 90% retention: no model, the summary is the artifact trail.
    name: 'tool-result-truncation, summarization (artifact trail alone, after the task)',
    strategy: () =>
      createPipeline([
        createToolResultTruncation(),
        createSummarization({ maxOutputTokens: 0, recentShare: 0.05, placement: 'assistant-after-task' }),
      ]),
    fallback: () => createSlidingWindow(),
  },
  {
    name: 'default pipeline (tool-result-truncation, sliding-window; sliding-window fallback)',
    strategy: () => fromConfig(['tool-result-truncation', 'sliding-window']),
    fallback: () => createSlidingWindow(),
  },
  {
    name: 'tool-result-truncation, summarization',
    strategy: () => fromConfig(['tool-result-truncation', 'summarization']),
    fallback: () => createSlidingWindow(),
  },
];
