/** Names of the contenders in the saved results, shared by the bench and what it writes from them. */

export const strategyNames = [
  'tool-result-truncation',
  'tool-result-truncation (mask)',
  'pruning',
  'sliding-window',
] as const;

export type StrategyName = (typeof strategyNames)[number];

/** The Compactor path of a strategy: the same strategy through `Compactor.compact`. */
export const compactorPath = (strategy: StrategyName) => `Compactor: ${strategy}`;

export const trimMessagesName = 'trimMessages';
export const maskName: StrategyName = 'tool-result-truncation (mask)';
export const pruneMessagesName = 'pruneMessages';
export const pruneCountingName = 'pruneMessages + counting its output';

/** The strategies `trimMessages` does the job of: drop the oldest messages down to a token count. */
export const trimmingStrategies: readonly StrategyName[] = ['pruning', 'sliding-window'];
