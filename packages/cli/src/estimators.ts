import { createFastEstimator, type TokenEstimator } from '@compaction/core';
import { CliError, usageError } from '@compaction/server';
import { didYouMean } from './did-you-mean.js';

/**
 * How tokens are counted: the fast built-in estimator (every text through the tokenizer's vocabulary), the
 * same by its fitted features (no vocabulary loaded, no guarantee on text unlike the fit's), tiktoken, or the
 * provider's own count.
 */
export const estimatorNames = ['fast', 'features', 'tiktoken', 'provider'] as const;

/** An estimator name. */
export type EstimatorName = (typeof estimatorNames)[number];

/** Checks an `--estimator` value. */
export function parseEstimatorName(text: string): EstimatorName {
  if ((estimatorNames as readonly string[]).includes(text)) return text as EstimatorName;
  throw usageError(
    `--estimator must be one of ${estimatorNames.join(', ')}, got "${text}"${didYouMean(text, estimatorNames)}`,
  );
}

interface TiktokenModule {
  createTiktokenEstimator(settings?: { encoding?: string }): TokenEstimator;
}

/** The exact OpenAI tokenizer from `@compaction/tokenizer-tiktoken`, loaded on demand. */
export async function tiktokenEstimator(): Promise<TokenEstimator> {
  let loaded: Partial<TiktokenModule>;
  try {
    loaded = (await import('@compaction/tokenizer-tiktoken' as string)) as Partial<TiktokenModule>;
  } catch (error) {
    throw new CliError({
      reason: 'config',
      message: '--estimator tiktoken needs @compaction/tokenizer-tiktoken and tiktoken installed',
      cause: error,
    });
  }
  if (typeof loaded.createTiktokenEstimator !== 'function') {
    throw new CliError({
      reason: 'config',
      message: '@compaction/tokenizer-tiktoken does not export createTiktokenEstimator',
    });
  }
  return loaded.createTiktokenEstimator();
}

/** A token estimator by name; `provider` has no estimator (it counts whole requests) and is rejected. */
export async function estimatorByName(name: Exclude<EstimatorName, 'provider'>): Promise<TokenEstimator> {
  if (name === 'fast') return createFastEstimator();
  if (name === 'features') return createFastEstimator({ vocabulary: false });
  return tiktokenEstimator();
}
