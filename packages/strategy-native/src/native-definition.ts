import { defineStrategy, type StrategyConfig } from '@compaction/core';
import { createNative } from './create-native.js';
import { type NativeOptions, nativeOptionsSchema } from './native-options.js';

/**
 * The `native` strategy definition, default-exported so the registry can load it by name. It uses the native
 * compaction of the provider the compaction is configured with (`StrategyContext.provider`), and resolves its
 * fallback through the same registry (a list is a pipeline).
 */
export const nativeDefinition = defineStrategy<NativeOptions>({
  specificationVersion: 'v1',
  name: 'native',
  description:
    "Uses the provider's own compaction where the model has it, and a local strategy (truncation, then summarization, by default) where it does not.",
  optionsSchema: nativeOptionsSchema,
  async create(options, context) {
    const config = options.fallback as StrategyConfig | StrategyConfig[];
    const fallback = await context.registry.resolve(
      Array.isArray(config) ? { name: 'pipeline', options: { stages: config } } : config,
      context.provider === undefined ? {} : { provider: context.provider },
    );
    return createNative({ fallback, nativeCompaction: context.provider?.nativeCompaction });
  },
  // Without a provider, native compaction never runs and the fallback compacts: it needs one when the
  // fallback does (the default's summarization).
  needsProvider: (options, context) => context.registry.needsProvider?.(options.fallback) === true,
});
