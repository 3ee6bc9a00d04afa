import { CompactionError } from './compaction-error.js';

/** A provider refused a request because it was longer than the model's context window. */
export class ContextOverflowError extends CompactionError {
  static override readonly marker: string = 'compaction.error.context-overflow';
  override readonly name: string = 'ContextOverflowError';
  declare readonly provider: string;
  /** Tokens the request had, when the provider said. */
  declare readonly requestTokens: number | undefined;
  /** The maximum the provider allows, when it said. */
  declare readonly maximumTokens: number | undefined;
  constructor(settings: {
    provider: string;
    requestTokens?: number;
    maximumTokens?: number;
    message?: string;
    cause?: unknown;
  }) {
    const { provider, requestTokens, maximumTokens, message, cause } = settings;
    const numbers = maximumTokens === undefined ? '' : `: ${requestTokens} tokens > ${maximumTokens}`;
    const fallback = `${provider} context window exceeded${requestTokens === undefined ? '' : numbers}`;
    super({ code: 'core/context-overflow', message: message ?? fallback, cause });
    Object.assign(this, { provider, requestTokens, maximumTokens });
  }
}
