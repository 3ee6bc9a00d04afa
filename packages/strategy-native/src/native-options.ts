import type { OptionsSchema, StrategyConfig } from '@compaction/core';

/** Options of the `native` strategy in a config. */
export interface NativeOptions {
  /**
   * The local strategy used where the provider or model has no native compaction, or its result does not fit
   * the target. Default `['tool-result-truncation', 'summarization']` (summarization with the configured
   * provider).
   */
  fallback?: StrategyConfig | StrategyConfig[];
}

declare module '@compaction/core' {
  interface StrategyOptionsByName {
    native: NativeOptions;
  }
}

/** The default local fallback: cheap truncation first, a summary only if still over. */
export const defaultFallback: string[] = ['tool-result-truncation', 'summarization'];

/** The JSON Schema of {@link NativeOptions}, with the defaults the registry fills in. */
export const nativeOptionsSchema: OptionsSchema = {
  type: 'object',
  properties: {
    fallback: {
      anyOf: [{ type: 'string' }, { type: 'object' }, { type: 'array', minItems: 1 }],
      default: defaultFallback,
      description:
        'The local strategy (or pipeline of strategies) used where the provider or model has no native compaction.',
    },
  },
  additionalProperties: false,
};
