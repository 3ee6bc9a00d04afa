import { CompactionAbortedError, ContextOverflowError, ProviderError } from '@compaction/core';
import { parseOpenAIContextOverflow } from './parse-openai-context-overflow.js';

const provider = 'openai';

/**
 * Maps a failure of an SDK call to a Compaction error: an overflow to {@link ContextOverflowError}, an
 * abort through the caller's signal to {@link CompactionAbortedError}, anything else to
 * {@link ProviderError}, retryable for 408, 409, 429 (except `insufficient_quota`, which waiting does not fix),
 * 5xx, timeouts and connection failures.
 */
export function toOpenAICompactionError(error: unknown, abortSignal?: AbortSignal): Error {
  if (abortSignal?.aborted === true) return new CompactionAbortedError({ cause: error });
  const overflow = parseOpenAIContextOverflow(error);
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
  const quotaExhausted = record.code === 'insufficient_quota';
  const retryable =
    connectionFailure ||
    (status !== undefined &&
      !quotaExhausted &&
      (status === 408 || status === 409 || status === 429 || status >= 500));
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
