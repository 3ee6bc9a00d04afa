import { CompactionError } from './compaction-error.js';

/** A provider refused a request because it was longer than the model's context window. */
export class ContextOverflowError extends CompactionError {
  static override readonly marker: string = 'compaction.error.context-overflow';
  override readonly name: string = 'ContextOverflowError';
  readonly provider: string;
  /** Tokens the request had, when the provider said. */
  readonly requestTokens: number | undefined;
  /** The maximum the provider allows, when it said. */
  readonly maximumTokens: number | undefined;

  constructor(settings: {
    provider: string;
    requestTokens?: number;
    maximumTokens?: number;
    message?: string;
    cause?: unknown;
  }) {
    const { provider, requestTokens, maximumTokens, message, cause } = settings;
    const numbers =
      requestTokens !== undefined && maximumTokens !== undefined
        ? `: ${requestTokens} tokens > ${maximumTokens}`
        : '';
    super({
      code: 'core/context-overflow',
      message: message ?? `${provider} context window exceeded${numbers}`,
      cause,
    });
    this.provider = provider;
    this.requestTokens = requestTokens;
    this.maximumTokens = maximumTokens;
  }
}
