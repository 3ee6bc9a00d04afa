import type { OptionsSchema } from '@compaction/core';

/** Options of the `pruning` strategy. */
export interface PruningOptions {
  /**
   * Deprecated, no effect: every strategy keeps the opening, everything the client sent before the first model
   * message (the task among it). Still accepted, so existing configs stay valid.
   */
  keepOriginalTask?: boolean;
  /**
   * The newest turns that are kept even when the target is not met yet. Default 5. They give way only when
   * the history cannot get under the hard limit otherwise.
   */
  minRecentTurns?: number;
  /** Leave a one-line marker ("N earlier messages removed") where messages were removed. Default `true`. */
  marker?: boolean;
}

declare module '@compaction/core' {
  interface StrategyOptionsByName {
    pruning: PruningOptions;
  }
}

/** The JSON Schema of {@link PruningOptions}, with the defaults the registry fills in. */
export const pruningOptionsSchema: OptionsSchema = {
  type: 'object',
  properties: {
    keepOriginalTask: {
      type: 'boolean',
      default: true,
      description:
        'Deprecated, no effect: the opening (everything before the first model message) is always kept.',
    },
    minRecentTurns: {
      type: 'integer',
      minimum: 0,
      default: 5,
      description:
        'The newest turns kept even when the target is not met yet (they give way only to the limit).',
    },
    marker: {
      type: 'boolean',
      default: true,
      description: 'Leave a one-line marker where messages were removed.',
    },
  },
  additionalProperties: false,
};
