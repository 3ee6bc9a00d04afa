import { createMessageEstimator, type TokenEstimator } from '@compaction/core';
import { encodingForModel } from './openai-model-limits.js';

/** Loads a tokenizer for a model; `undefined` when none is available. */
export type EstimatorLoader = (modelId: string) => Promise<TokenEstimator | undefined>;

/**
 * The default loader: `@compaction/tokenizer-tiktoken` when it is installed (loaded lazily, once per
 * encoding), through its `createTiktokenEstimator({ encoding })`; `undefined` otherwise.
 */
export const loadTiktokenEstimator: EstimatorLoader = async (modelId) => {
  const packageName = '@compaction/tokenizer-tiktoken';
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(packageName)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const create = loaded.createTiktokenEstimator;
  if (typeof create !== 'function') return undefined;
  return (await create({ encoding: encodingForModel(modelId), model: modelId })) as TokenEstimator;
};

/** The estimator used when no tokenizer is available: a length-based estimate (3.5 characters a token) with core's message overhead. */
export const fallbackEstimator: TokenEstimator = createMessageEstimator({
  name: 'approximate:3.5',
  countText: (text) => Math.ceil(text.length / 3.5),
});
