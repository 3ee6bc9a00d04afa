import { toProviderCompactionError } from '@compaction/provider-utils';
import { parseAnthropicContextOverflow } from './parse-anthropic-context-overflow.js';

const mapping = { provider: 'anthropic', parseContextOverflow: parseAnthropicContextOverflow };

/**
 * Maps a failure of an SDK call to a Compaction error: an overflow to `ContextOverflowError`, an
 * abort through the caller's signal to `CompactionAbortedError`, anything else to
 * `ProviderError`, retryable for 408, 409, 429, 5xx (529 overloaded included), timeouts and
 * connection failures.
 */
export function toAnthropicCompactionError(error: unknown, abortSignal?: AbortSignal): Error {
  return toProviderCompactionError(error, mapping, abortSignal);
}
