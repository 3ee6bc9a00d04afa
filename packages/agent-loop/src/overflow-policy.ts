import type { CompactOptions, Compactor, ContextOverflow, Message, RequestSize } from '@compaction/core';
import { contextOverflowOfError } from '@compaction/provider-utils';

/**
 * Retries one call gets after overflow refusals, at most: the first is cut as the provider's figures say, each
 * later one cuts harder (see {@link overflowCompactOptions}); a refusal after the last is the caller's.
 */
export const maximumOverflowRetries = 2;

/** Share of the limit each retry after the first keeps of the one before: a refused cut was too shallow. */
export const retryCut = 0.85;

/**
 * What counts as an overflow refusal, everywhere: a `ContextOverflowError` (an adapter's mapping, a retry's
 * failure) or an error the provider's parser recognises, with the figures it states; never a call the caller
 * aborted.
 */
export function overflowOf(
  error: unknown,
  parseContextOverflow: ((error: unknown) => ContextOverflow | undefined) | undefined,
  signal?: AbortSignal,
): ContextOverflow | undefined {
  if (signal?.aborted === true) return undefined;
  return contextOverflowOfError(error) ?? parseContextOverflow?.(error);
}

/** What {@link overflowCompactOptions} sizes the cut from. */
export interface OverflowCompactionSettings {
  compactor: Compactor;
  /** The messages of the refused request. */
  messages: readonly Message[];
  /** The refusal, with the provider's figures when it stated them. */
  overflow: ContextOverflow;
  /** 1 for the cut after the first refusal, 2 after the second... */
  attempt: number;
  /**
   * The request's size: what it carries besides its messages, and a limit the caller learned for it. A limit
   * given here holds the refusal's figures already (the proxy learns them per model), so the Compactor does not
   * scale by them a second time.
   */
  size?: RequestSize | undefined;
  sessionId?: string | undefined;
  abortSignal?: AbortSignal | undefined;
}

/**
 * The options of the compaction after an overflow refusal, the one policy of every caller. The first cut is
 * sized by the provider's figures: the Compactor shrinks its limit by how far its count of the refused request
 * fell short of the tokens the provider stated (see {@link sizedOverflow}). A refusal without figures is taken
 * to be one token over the window, or over the count when that is larger, which leaves the Compactor's own
 * shrink to cut. A later refusal came after a cut the figures sized already: its cut goes under what was
 * refused (the Compactor keeps 90% of its count) and keeps {@link retryCut} of the limit before it.
 */
export function overflowCompactOptions(settings: OverflowCompactionSettings): CompactOptions {
  const { compactor, overflow, attempt, size = {} } = settings;
  const first = attempt <= 1;
  // A limit given with the request holds the figures already: the Compactor is not to scale by them again.
  const figures: ContextOverflow =
    first && size.limitTokens === undefined ? sizedOverflow(settings) : { message: overflow.message };
  const harder = first
    ? {}
    : { limitTokens: Math.floor((size.limitTokens ?? compactor.budget.limit) * retryCut ** (attempt - 1)) };
  return {
    ...size,
    ...harder,
    trigger: 'overflow',
    overflow: figures,
    ...(settings.sessionId === undefined ? {} : { sessionId: settings.sessionId }),
    ...(settings.abortSignal === undefined ? {} : { abortSignal: settings.abortSignal }),
  };
}

/**
 * A stated request size above this multiple of the Compactor's count of the refused request is taken for a
 * misreading (another request's figures), not the estimate's error: the cut is sized as if it said this much.
 */
export const statedSizeBound = 4;

/**
 * The refusal with the request size the cut is made from. A refused request was over the limit, so it is taken
 * to be at least one token over the window, or over the count when that is larger: a refusal that states no
 * size is that, and a stated size never makes the cut shallower. A stated size counts up to
 * {@link statedSizeBound} times the count.
 */
export function sizedOverflow(
  settings: Pick<OverflowCompactionSettings, 'compactor' | 'messages' | 'overflow' | 'size'>,
): ContextOverflow {
  const { compactor, overflow } = settings;
  const counted = compactor.counter.count(settings.messages) + (settings.size?.overheadTokens ?? 0);
  const least = Math.max(compactor.budget.contextWindow, counted) + 1;
  const stated = Math.min(overflow.requestTokens ?? 0, Math.max(1, counted) * statedSizeBound);
  const requestTokens = Math.max(least, stated);
  return requestTokens === overflow.requestTokens ? overflow : { ...overflow, requestTokens };
}
