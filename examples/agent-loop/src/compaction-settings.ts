import { createStrategyRegistry, resolveCompactionConfig } from '@compaction/core';
import slidingWindow from '@compaction/strategy-sliding-window';
import toolResultTruncation from '@compaction/strategy-tool-result-truncation';

// A deliberately small window, so that a short run crosses the trigger several times.
export const contextWindow = 16_000;

/** The system prompt of the coding agent. */
export const systemPrompt =
  'You are a coding agent. Use the tools to inspect the repository before answering.';

/** The compaction both examples set up: the strategies to run, by name, when the trigger fires, and the window. */
export async function compactionSettings() {
  const registry = createStrategyRegistry({ definitions: [toolResultTruncation, slidingWindow] });
  const config = await resolveCompactionConfig(
    { strategy: ['tool-result-truncation', 'sliding-window'] },
    registry,
  );
  return { ...config, budget: { contextWindow } };
}
