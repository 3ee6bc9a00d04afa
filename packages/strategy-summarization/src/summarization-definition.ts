import { defineStrategy } from '@compaction/core';
import { createSummarization } from './create-summarization.js';
import { type SummarizationOptions, summarizationOptionsSchema } from './summarization-options.js';
import { strategyName } from './summary-message.js';

declare module '@compaction/core' {
  interface StrategyOptionsByName {
    summarization: SummarizationOptions;
  }
}

/**
 * The `summarization` strategy definition, default-exported so the registry can load it by name. It
 * summarizes with the provider the compaction is configured with (`StrategyContext.provider`).
 */
export const summarizationDefinition = defineStrategy<SummarizationOptions>({
  specificationVersion: 'v1',
  name: strategyName,
  description:
    'Replaces the older span with an LLM summary that merges the previous one and keeps a deterministic trail of files, commands and errors.',
  optionsSchema: summarizationOptionsSchema,
  create: (options, context) =>
    createSummarization({
      ...options,
      ...(context.provider === undefined ? {} : { provider: context.provider }),
    }),
  // With `maxOutputTokens: 0` the summary is the artifact trail alone, written without a model.
  needsProvider: (options) => options.maxOutputTokens !== 0,
});
