import type { OptionsSchema } from '@compaction/core';

/** Options of the `sliding-window` strategy. */
export interface SlidingWindowOptions {
  /**
   * Most tokens of recent turns to keep besides the head. Default: no cap of its own, the window is
   * whatever fits the target after the head.
   */
  windowTokens?: number;
  /**
   * Deprecated, no effect: every strategy keeps the opening, everything the client sent before the first model
   * message (the task among it). Still accepted, so existing configs stay valid.
   */
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
      description:
        'Deprecated, no effect: the opening (everything before the first model message) is always kept.',
    },
    marker: {
      type: 'boolean',
      default: true,
      description: 'Leave a marker stating how many messages were skipped.',
    },
  },
  additionalProperties: false,
};
