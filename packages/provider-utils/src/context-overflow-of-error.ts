import { type ContextOverflow, ContextOverflowError } from '@compaction/core';

/**
 * The overflow a {@link ContextOverflowError} stands for, so an adapter's `parseContextOverflow` recognises
 * the errors it threw itself (a retry, a wrapped call) as well as its SDK's; `undefined` for any other value.
 */
export function contextOverflowOfError(error: unknown): ContextOverflow | undefined {
  if (!ContextOverflowError.isInstance(error)) return undefined;
  return {
    message: error.message,
    ...(error.requestTokens === undefined ? {} : { requestTokens: error.requestTokens }),
    ...(error.maximumTokens === undefined ? {} : { maximumTokens: error.maximumTokens }),
  };
}
