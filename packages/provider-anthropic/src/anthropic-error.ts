import { CompactionAbortedError, ContextOverflowError, ProviderError } from '@compaction/core';
import { parseAnthropicContextOverflow } from './parse-anthropic-context-overflow.js';

const provider = 'anthropic';

/**
 * Maps a failure of an SDK call to a Compaction error: an overflow to {@link ContextOverflowError}, an
 * abort through the caller's signal to {@link CompactionAbortedError}, anything else to
 * {@link ProviderError}, retryable for 408, 409, 429, 5xx (529 overloaded included), timeouts and
 * connection failures.
 */
export function toAnthropicCompactionError(error: unknown, abortSignal?: AbortSignal): Error {
  if (abortSignal?.aborted === true) return new CompactionAbortedError({ cause: error });
  const overflow = parseAnthropicContextOverflow(error);
  if (overflow !== undefined) {
    return new ContextOverflowError({
      provider,
      message: `${provider}: ${overflow.message}`,
      cause: error,
      ...(overflow.requestTokens === undefined ? {} : { requestTokens: overflow.requestTokens }),
      ...(overflow.maximumTokens === undefined ? {} : { maximumTokens: overflow.maximumTokens }),
    });
  }
  const record = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const status = typeof record.status === 'number' ? record.status : undefined;
  const name = typeof record.name === 'string' ? record.name : '';
  const connectionFailure =
    status === undefined && /Connection|Timeout/.test(`${name} ${constructorName(error)}`);
  const retryable =
    connectionFailure ||
    (status !== undefined && (status === 408 || status === 409 || status === 429 || status >= 500));
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError({
    provider,
    message,
    retryable,
    cause: error,
    ...(status === undefined ? {} : { status }),
  });
}

function constructorName(error: unknown): string {
  return typeof error === 'object' && error !== null ? (error.constructor?.name ?? '') : '';
}
