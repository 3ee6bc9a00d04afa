import { CompactionError } from './compaction-error.js';

/** A provider call (generate or count) failed. */
export class ProviderError extends CompactionError {
  static override readonly marker: string = 'compaction.error.provider-error';
  override readonly name: string = 'ProviderError';
  /** The provider's name, such as `anthropic`. */
  readonly provider: string;
  /** HTTP status, when the failure came from an HTTP response. */
  readonly status: number | undefined;
  /** Whether trying again later may succeed (rate limits, overload, timeouts). */
  readonly retryable: boolean;

  constructor(settings: {
    provider: string;
    message: string;
    status?: number;
    retryable?: boolean;
    cause?: unknown;
  }) {
    const { provider, message, status, retryable = false, cause } = settings;
    super({ code: 'core/provider-error', message: `${provider}: ${message}`, cause });
    this.provider = provider;
    this.status = status;
    this.retryable = retryable;
  }
}
