import {
  CompactionAbortedError,
  CompactionError,
  type CompactionResult,
  type CompactOptions,
  type Compactor,
  type ContextOverflow,
  ContextOverflowError,
  type Message,
  type RequestSize,
} from '@compaction/core';
import {
  maximumOverflowRetries,
  overflowCompactOptions,
  overflowOf,
  sizedOverflow,
} from './overflow-policy.js';
import { type OverflowAttempt, OverflowRetriesExhaustedError } from './overflow-retries-exhausted-error.js';

/** What one model call wrapped by {@link callWithCompaction} needs. */
export interface CompactedCallSettings<Result> {
  /** Decides and compacts; its counter is anchored on the usage the call reports. */
  compactor: Compactor;
  /** The history to send, before any compaction. Never changed. */
  messages: readonly Message[];
  /** Sends messages to the model: `attempt` 1 first, then each retry. Throws what the model's client throws. */
  send: (messages: Message[], attempt: number) => Promise<Result>;
  /**
   * The input tokens the answer reports (cached ones included), or undefined without usage; a promise when
   * the usage comes later (at the end of a stream). Recorded against the messages that answer was sent.
   */
  inputTokens?: ((result: Result) => number | undefined | Promise<number | undefined>) | undefined;
  /** Recognises the provider's "too long" refusals besides a `ContextOverflowError`. */
  parseContextOverflow?: ((error: unknown) => ContextOverflow | undefined) | undefined;
  /** Maps a refusal to a typed error whose provider and message the final error keeps. */
  toCompactionError?: ((error: unknown) => Error) | undefined;
  /** Names the provider in errors when `toCompactionError` does not. Default `unknown`. */
  provider?: string | undefined;
  /** Whether to compact before the first request when the trigger fires. Default true. */
  prepare?: boolean | undefined;
  /**
   * What the request carries besides its messages, and a limit the caller learned for it; a function when a
   * refusal teaches the caller a new limit (read before the first request, and after each `onOverflow`).
   */
  size?: RequestSize | (() => RequestSize) | undefined;
  /** Runs a compaction after a refusal (in the caller's limiter, say). Default: the compactor's `compact`. */
  compact?: ((messages: Message[], options: CompactOptions) => Promise<CompactionResult>) | undefined;
  sessionId?: string | undefined;
  /** Aborts the compactions and is handed to nothing else: `send` aborts its own request. */
  signal?: AbortSignal | undefined;
  /**
   * Hears each compaction (`attempt` 0 before the first request, else the refused attempt it follows) and may
   * return the messages to send instead of its result (a repair the caller's API needs).
   */
  onCompaction?: ((result: CompactionResult, attempt: number) => Message[] | undefined) | undefined;
  /** Hears each refusal before the compaction that follows it, and the last one before it is thrown. */
  onOverflow?: ((error: ContextOverflowError, attempt: number) => void) | undefined;
}

/** What {@link callWithCompaction} returns. */
export interface CompactedCall<Result> {
  /** The answer to the last request. */
  result: Result;
  /** The messages that request carried, which its usage is recorded against. */
  messages: Message[];
  /** Requests sent: 1, or more after overflow refusals. */
  attempts: number;
  /** The compactions made, in order. */
  compactions: CompactionResult[];
}

/**
 * The one way a model call is wrapped: compacts when the trigger fires, sends, records the usage the answer
 * reports against the messages it was sent, and after an overflow refusal compacts with the `overflow` trigger,
 * sized by the provider's figures (see `overflowCompactOptions`), and sends again, at most
 * `maximumOverflowRetries` times. Other errors are thrown unchanged. A refusal of the last retry, or a
 * refusal after which no harder cut is found, throws {@link OverflowRetriesExhaustedError}; a history whose
 * first cut cannot get under the limit throws the Compactor's error (a `BudgetUnreachableError`).
 */
export async function callWithCompaction<Result>(
  settings: CompactedCallSettings<Result>,
): Promise<CompactedCall<Result>> {
  const { compactor, sessionId, signal } = settings;
  const options = {
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(signal === undefined ? {} : { abortSignal: signal }),
  };
  const sizeNow = () => (typeof settings.size === 'function' ? settings.size() : settings.size);
  const compact = settings.compact ?? ((messages, cut) => compactor.compact(messages, cut));
  const compactions: CompactionResult[] = [];
  const adopt = (result: CompactionResult, attempt: number): Message[] => {
    if (result.compacted) compactions.push(result);
    return settings.onCompaction?.(result, attempt) ?? result.messages;
  };
  let messages = [...settings.messages];
  if (settings.prepare !== false) {
    const prepared = await compactor.prepare(messages, { ...options, ...sizeNow() });
    if (prepared.compacted) messages = adopt(prepared, 0);
  }
  const refused: OverflowAttempt[] = [];
  for (let attempt = 1; ; attempt++) {
    let result: Result;
    try {
      result = await settings.send(messages, attempt);
    } catch (error) {
      const overflow = overflowOf(error, settings.parseContextOverflow, signal);
      if (overflow === undefined) throw error;
      const size = sizeNow();
      const tokens = compactor.counter.count(messages) + (size?.overheadTokens ?? 0);
      refused.push({ attempt, messages: messages.length, tokens, ...figuresOf(overflow) });
      // The event carries the provider's figures, or the size assumed for a refusal that states none.
      const heard =
        overflow.requestTokens === undefined
          ? sizedOverflow({ compactor, messages, overflow, size })
          : overflow;
      settings.onOverflow?.(typedOverflow(error, heard, settings), attempt);
      const exhausted = (cause: unknown, why = '') =>
        new OverflowRetriesExhaustedError({
          provider: typedOverflow(error, overflow, settings).provider,
          message: `${overflow.message}${why}`,
          attempts: refused,
          cause,
          ...figuresOf(overflow),
        });
      if (attempt > maximumOverflowRetries) throw exhausted(error);
      // Read again: the refusal may have taught the caller a lower limit.
      const learned = sizeNow();
      const cut = overflowCompactOptions({
        compactor,
        messages,
        overflow,
        attempt,
        ...options,
        ...(learned === undefined ? {} : { size: learned }),
      });
      try {
        messages = adopt(await compact(messages, cut), attempt);
      } catch (failure) {
        // The first cut failing says what cannot fit (the Compactor's error); a harder cut failing after a cut
        // the provider refused anyway leaves the refusal as what the caller must see.
        if (
          attempt === 1 ||
          CompactionAbortedError.isInstance(failure) ||
          !CompactionError.isInstance(failure)
        ) {
          throw failure;
        }
        throw exhausted(failure, ` (and no shorter cut was found: ${failure.message})`);
      }
      continue;
    }
    recordUsage(compactor, messages, result, settings.inputTokens);
    return { result, messages, attempts: attempt, compactions };
  }
}

function figuresOf(overflow: ContextOverflow): { requestTokens?: number; maximumTokens?: number } {
  return {
    ...(overflow.requestTokens === undefined ? {} : { requestTokens: overflow.requestTokens }),
    ...(overflow.maximumTokens === undefined ? {} : { maximumTokens: overflow.maximumTokens }),
  };
}

/**
 * The refusal as a `ContextOverflowError` with the figures `overflow` holds: the caller's mapping (or the error
 * itself) when it holds them, else one built with the mapping's provider.
 */
function typedOverflow(
  error: unknown,
  overflow: ContextOverflow,
  settings: Pick<CompactedCallSettings<never>, 'toCompactionError' | 'provider'>,
): ContextOverflowError {
  const mapped = ContextOverflowError.isInstance(error) ? error : settings.toCompactionError?.(error);
  const typed = mapped !== undefined && ContextOverflowError.isInstance(mapped) ? mapped : undefined;
  if (typed !== undefined && typed.requestTokens === overflow.requestTokens) return typed;
  return new ContextOverflowError({
    provider: typed?.provider ?? settings.provider ?? 'unknown',
    message: overflow.message,
    cause: error,
    ...figuresOf(overflow),
  });
}

/** Anchors the counter on the usage of an answer, now or when a streamed answer reports it. */
function recordUsage<Result>(
  compactor: Compactor,
  messages: Message[],
  result: Result,
  inputTokensOf: CompactedCallSettings<Result>['inputTokens'],
): void {
  const record = (inputTokens: number | undefined) => {
    if (inputTokens !== undefined) compactor.recordUsage({ messages, inputTokens });
  };
  const reported = inputTokensOf?.(result);
  if (reported instanceof Promise) {
    // A stream that fails before its usage has nothing to record; its failure is the stream reader's.
    reported.then(record, () => undefined);
  } else record(reported);
}
