import { createApproximateEstimator, type TokenEstimator } from '@compaction/core';
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

/** The estimator used when no tokenizer is available: core's length-based estimate. */
export const fallbackEstimator: TokenEstimator = createApproximateEstimator();
