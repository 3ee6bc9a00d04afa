import { toProviderCompactionError } from '@compaction/provider-utils';
import { parseOpenAIContextOverflow } from './parse-openai-context-overflow.js';

const mapping = {
  provider: 'openai',
  parseContextOverflow: parseOpenAIContextOverflow,
  // A 429 for an exhausted quota is not a rate limit: waiting does not fix it.
  isPermanent: (error: Readonly<Record<string, unknown>>) => error.code === 'insufficient_quota',
};

/**
 * Maps a failure of an SDK call to a Compaction error: an overflow to `ContextOverflowError`, an
 * abort through the caller's signal to `CompactionAbortedError`, anything else to
 * `ProviderError`, retryable for 408, 409, 429 (except `insufficient_quota`, which waiting does not fix),
 * 5xx, timeouts and connection failures.
 */
export function toOpenAICompactionError(error: unknown, abortSignal?: AbortSignal): Error {
  return toProviderCompactionError(error, mapping, abortSignal);
}
