import { overflowOf } from '@compaction/agent-loop';
import type { ContextOverflow } from '@compaction/core';
import { overflowFiguresOfText } from '@compaction/provider-utils';
import { isRecord } from '../convert/langchain-slot.js';

/**
 * Recognises a context-overflow refusal from a LangChain chat model: LangChain's own `ContextOverflowError`
 * (which `ChatAnthropic` and `ChatOpenAI` raise for "prompt is too long" and `context_length_exceeded`), the
 * core's `ContextOverflowError`, anywhere along the `cause` chain (a middleware's error wraps the model's), with
 * the token figures the provider's message states. `undefined` for any other error.
 */
export function parseContextOverflow(error: unknown): ContextOverflow | undefined {
  const seen = new Set<unknown>();
  const texts: string[] = [];
  let recognised: ContextOverflow | undefined;
  for (let current = error; isRecord(current) && !seen.has(current); current = current.cause) {
    seen.add(current);
    // The core's own `ContextOverflowError` (a retry's failure, an adapter's mapping), as everywhere.
    const own = overflowOf(current, undefined);
    if (own !== undefined) return own;
    if (typeof current.message === 'string') texts.push(current.message);
    if (isLangChainOverflow(current))
      recognised ??= { message: String(current.message ?? 'context overflow') };
  }
  if (recognised === undefined) return undefined;
  return { ...recognised, ...overflowFiguresOfText(texts.join('\n')) };
}

/** LangChain's `ContextOverflowError`, known by name and error code so any copy of `@langchain/core` counts. */
function isLangChainOverflow(error: Record<string, unknown>): boolean {
  return error.name === 'ContextOverflowError' || error.lc_error_code === 'CONTEXT_OVERFLOW';
}
