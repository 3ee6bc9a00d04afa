import type { StrategyDefinition } from '../specs/strategy-registry-v1.js';

/** Declares a strategy definition with its options type. */
export function defineStrategy<Options>(
  definition: StrategyDefinition<Options>,
): StrategyDefinition<Options> {
  return definition;
}
