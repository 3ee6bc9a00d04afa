import { type JSONObject, type OptionsSchema, validateOptions } from '@compaction/core';
import { type CacheAwareTrigger, createCacheAwareTrigger } from './cache-aware-trigger.js';
import { anthropicCacheModel, type CacheModel, openaiCacheModel } from './cache-model.js';

/** The config options of the `cache-aware` trigger policy: plain JSON. */
export interface CacheAwareTriggerConfig {
  /** `anthropic-5m` (default), `anthropic-1h`, `openai` (with `model`), or the multipliers themselves. */
  cache?: 'anthropic-5m' | 'anthropic-1h' | 'openai' | CacheModel;
  /** The model, for `openai`'s read price. */
  model?: string;
  /** See `CacheAwareTriggerOptions.clearTo`: what a compaction clears down to. */
  clearTo?: number;
  /** See `CacheAwareTriggerOptions.compactionCost`: what the compaction pays per token removed. */
  compactionCost?: number;
  /** See `CacheAwareTriggerOptions.maximumSessions`: sessions remembered at most (default 1000). */
  maximumSessions?: number;
}

/** The JSON Schema of {@link CacheAwareTriggerConfig}. */
export const cacheAwareTriggerConfigSchema: OptionsSchema = {
  type: 'object',
  properties: {
    cache: {
      anyOf: [
        { enum: ['anthropic-5m', 'anthropic-1h', 'openai'] },
        {
          type: 'object',
          properties: {
            write: { type: 'number', minimum: 0 },
            read: { type: 'number', exclusiveMinimum: 0 },
            lifetimeSeconds: { type: 'number', exclusiveMinimum: 0 },
          },
          required: ['write', 'read', 'lifetimeSeconds'],
          additionalProperties: false,
        },
      ],
      description:
        'The provider cache: anthropic-5m (default), anthropic-1h, openai, or { write, read, lifetimeSeconds }.',
    },
    model: { type: 'string', description: "The model, for OpenAI's cached-input price." },
    clearTo: {
      type: 'number',
      exclusiveMinimum: 0,
      description: 'What a compaction clears down to (default 0.25).',
    },
    compactionCost: {
      type: 'number',
      minimum: 0,
      description:
        'Input price the compaction pays per token it removes (0 deterministic, about 1 summarizing).',
    },
    maximumSessions: {
      type: 'integer',
      minimum: 1,
      description:
        'Sessions remembered at most; the one sent to least recently is forgotten first (default 1000).',
    },
  },
  additionalProperties: false,
};

/**
 * The `cache-aware` trigger policy from config options (validated against
 * {@link cacheAwareTriggerConfigSchema}; `InvalidOptionsError` otherwise), on the clock `now`. Give it to
 * `resolveCompactionConfig` as `triggerPolicies: { 'cache-aware': cacheAwareTriggerFromConfig }`.
 */
export function cacheAwareTriggerFromConfig(options: JSONObject, now?: () => number): CacheAwareTrigger {
  validateOptions(cacheAwareTriggerConfigSchema, options, 'cache-aware trigger');
  const config = options as CacheAwareTriggerConfig;
  const cache =
    config.cache === 'openai'
      ? openaiCacheModel(config.model)
      : config.cache === 'anthropic-1h'
        ? anthropicCacheModel('1h')
        : config.cache === undefined || config.cache === 'anthropic-5m'
          ? anthropicCacheModel('5m')
          : config.cache;
  return createCacheAwareTrigger({
    cache,
    ...(config.clearTo === undefined ? {} : { clearTo: config.clearTo }),
    ...(config.compactionCost === undefined ? {} : { compactionCost: config.compactionCost }),
    ...(config.maximumSessions === undefined ? {} : { maximumSessions: config.maximumSessions }),
    ...(now === undefined ? {} : { now }),
  });
}
