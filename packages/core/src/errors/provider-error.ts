import { CompactionError } from './compaction-error.js';

/** A provider call (generate or count) failed. */
export class ProviderError extends CompactionError {
  static override readonly marker: string = 'compaction.error.provider-error';
  override readonly name: string = 'ProviderError';
  /** The provider's name, such as `anthropic`. */
  declare readonly provider: string;
  /** HTTP status, when the failure came from an HTTP response. */
  declare readonly status: number | undefined;
  /** Whether trying again later may succeed (rate limits, overload, timeouts). */
  declare readonly retryable: boolean;
  constructor(settings: {
    provider: string;
    message: string;
    status?: number;
    retryable?: boolean;
    cause?: unknown;
  }) {
    const { provider, message, status, retryable = false, cause } = settings;
    super({ code: 'core/provider-error', message: `${provider}: ${message}`, cause });
    Object.assign(this, { provider, status, retryable });
  }
}
