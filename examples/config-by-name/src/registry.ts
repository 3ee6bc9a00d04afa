import { createStrategyRegistry, type StrategyRegistry } from '@compaction/core';
import slidingWindow from '@compaction/strategy-sliding-window';
import toolResultTruncation from '@compaction/strategy-tool-result-truncation';

/**
 * A registry with the installed strategy packages registered by their default export. Registering them up
 * front (rather than letting the registry import `@compaction/strategy-<name>` on demand) keeps resolution
 * independent of where the core package happens to be installed.
 */
export function createRegistry(): StrategyRegistry {
  return createStrategyRegistry({ definitions: [toolResultTruncation, slidingWindow] });
}
