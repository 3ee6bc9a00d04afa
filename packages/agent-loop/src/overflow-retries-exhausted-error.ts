import { type CompactionErrorCode, ContextOverflowError } from '@compaction/core';

/** One request of a call that the provider refused as too long. */
export interface OverflowAttempt {
  /** 1 for the first request of the call, then each retry. */
  attempt: number;
  /** Messages the request carried. */
  messages: number;
  /** The compactor's count of them, with what the request carries besides them. */
  tokens: number;
  /** Tokens the provider said the request had, when it said. */
  requestTokens?: number;
  /** The maximum the provider stated, when it did. */
  maximumTokens?: number;
}

/**
 * Every retry a call gets after overflow refusals was refused too. A {@link ContextOverflowError} (with the
 * figures of the last refusal), so callers that handle an overflow handle it; `attempts` says what was sent
 * each time, to tell a limit stated wrongly from a history that cannot be cut small enough.
 */
export class OverflowRetriesExhaustedError extends ContextOverflowError {
  static override readonly marker: string = 'compaction.error.overflow-retries-exhausted';
  override readonly name: string = 'OverflowRetriesExhaustedError';
  override readonly code: CompactionErrorCode = 'agent-loop/overflow-retries-exhausted';
  /** Each refused request, oldest first. */
  declare readonly attempts: readonly OverflowAttempt[];
  constructor(settings: {
    provider: string;
    attempts: readonly OverflowAttempt[];
    requestTokens?: number;
    maximumTokens?: number;
    message: string;
    cause?: unknown;
  }) {
    const { attempts, message, ...figures } = settings;
    const sizes = attempts.map((attempt) => attempt.tokens).join(', ');
    super({
      ...figures,
      message: `${settings.provider} refused the request as too long ${attempts.length} times (counted ${sizes} tokens as sent), after every retry it gets: ${message}`,
    });
    Object.assign(this, { attempts: [...attempts] });
  }
}
