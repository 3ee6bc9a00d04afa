import { CompactionError } from './compaction-error.js';

const marker = 'compaction.error.context-overflow';
const symbol = Symbol.for(marker);

/** A provider refused a request because it was longer than the model's context window. */
export class ContextOverflowError extends CompactionError {
  private readonly [symbol] = true;
  readonly provider: string;
  /** Tokens the request had, when the provider said. */
  readonly requestTokens: number | undefined;
  /** The maximum the provider allows, when it said. */
  readonly maximumTokens: number | undefined;

  constructor({
    provider,
    requestTokens,
    maximumTokens,
    message,
    cause,
  }: {
    provider: string;
    requestTokens?: number;
    maximumTokens?: number;
    message?: string;
    cause?: unknown;
  }) {
    const numbers =
      requestTokens !== undefined && maximumTokens !== undefined
        ? `: ${requestTokens} tokens > ${maximumTokens}`
        : '';
    super({
      code: 'context-overflow',
      message: message ?? `${provider} context window exceeded${numbers}`,
      cause,
    });
    this.name = 'ContextOverflowError';
    this.provider = provider;
    this.requestTokens = requestTokens;
    this.maximumTokens = maximumTokens;
  }

  static override isInstance(error: unknown): error is ContextOverflowError {
    return CompactionError.hasMarker(error, marker);
  }
}
