import { CompactionError } from './compaction-error.js';

const marker = 'compaction.error.provider-error';
const symbol = Symbol.for(marker);

/** A provider call (generate or count) failed. */
export class ProviderError extends CompactionError {
  private readonly [symbol] = true;
  /** The provider's name, such as `anthropic`. */
  readonly provider: string;
  /** HTTP status, when the failure came from an HTTP response. */
  readonly status: number | undefined;
  /** Whether trying again later may succeed (rate limits, overload, timeouts). */
  readonly retryable: boolean;

  constructor({
    provider,
    message,
    status,
    retryable = false,
    cause,
  }: { provider: string; message: string; status?: number; retryable?: boolean; cause?: unknown }) {
    super({ code: 'provider-error', message: `${provider}: ${message}`, cause });
    this.name = 'ProviderError';
    this.provider = provider;
    this.status = status;
    this.retryable = retryable;
  }

  static override isInstance(error: unknown): error is ProviderError {
    return CompactionError.hasMarker(error, marker);
  }
}
