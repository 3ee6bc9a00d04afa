import {
  CompactionAbortedError,
  CompactionError,
  type ContextOverflow,
  ContextOverflowError,
  ProviderError,
} from '@compaction/core';

/** How {@link toProviderCompactionError} reads one provider's failures. */
export interface ProviderErrorMapping {
  /** The provider's name, such as `anthropic`; it prefixes the messages. */
  provider: string;
  /** Recognises the provider's "too long" refusals (the provider's `parseContextOverflow`). */
  parseContextOverflow: (error: unknown) => ContextOverflow | undefined;
  /**
   * Failures that waiting does not fix although their status is a retryable one (OpenAI's 429
   * `insufficient_quota`). Receives the error as a record. Default: none.
   */
  isPermanent?: (error: Readonly<Record<string, unknown>>) => boolean;
}

/**
 * Maps a failure of an SDK call to a Compaction error (one that already is a `CompactionError` is returned
 * unchanged): an abort through the caller's signal to
 * {@link CompactionAbortedError}; an overflow refusal to {@link ContextOverflowError} with the numbers the
 * provider gave; anything else to {@link ProviderError} with the HTTP `status` when there is one, retryable for
 * 408, 409, 429, 5xx, and for timeouts and connection failures (errors without a status whose name or class
 * says `Connection` or `Timeout`, as the SDKs name them).
 */
export function toProviderCompactionError(
  error: unknown,
  mapping: ProviderErrorMapping,
  abortSignal?: AbortSignal,
): Error {
  // Already typed (a lazily built client that failed, a nested adapter call): passed on as it is.
  if (CompactionError.isInstance(error)) return error;
  const { provider } = mapping;
  if (abortSignal?.aborted === true) return new CompactionAbortedError({ cause: error });
  const overflow = mapping.parseContextOverflow(error);
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
    (status !== undefined && isRetryableStatus(status) && mapping.isPermanent?.(record) !== true);
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError({
    provider,
    message,
    retryable,
    cause: error,
    ...(status === undefined ? {} : { status }),
  });
}

/** Statuses after which the same request may succeed later: timeout, conflict, rate limit, server errors. */
function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

function constructorName(error: unknown): string {
  return typeof error === 'object' && error !== null ? (error.constructor?.name ?? '') : '';
}
