import type { OptionsSchema } from '@compaction/core';

/** Options of the `sliding-window` strategy. */
export interface SlidingWindowOptions {
  /**
   * Most tokens of recent turns to keep besides the head. Default: no cap of its own, the window is
   * whatever fits the target after the head.
   */
  windowTokens?: number;
  /** Keep the original task (the first user message) in the head. Default `true`. */
  keepOriginalTask?: boolean;
  /** Leave a marker stating how many messages were skipped. Default `true`. */
  marker?: boolean;
}

declare module '@compaction/core' {
  interface StrategyOptionsByName {
    'sliding-window': SlidingWindowOptions;
  }
}

/** The JSON Schema of {@link SlidingWindowOptions}, with the defaults the registry fills in. */
export const slidingWindowOptionsSchema: OptionsSchema = {
  type: 'object',
  properties: {
    windowTokens: {
      type: 'integer',
      exclusiveMinimum: 0,
      description:
        'Most tokens of recent turns to keep besides the head; by default whatever fits the target.',
    },
    keepOriginalTask: {
      type: 'boolean',
      default: true,
      description: 'Keep the original task (the first user message) in the head.',
    },
    marker: {
      type: 'boolean',
      default: true,
      description: 'Leave a marker stating how many messages were skipped.',
    },
  },
  additionalProperties: false,
};
