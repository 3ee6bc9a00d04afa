import type { ContextOverflow } from '@compaction/core';
import { overflowFiguresOfText } from '@compaction/provider-utils';
import { isRecord } from '../convert/metadata-slot.js';

/** Phrases providers use when a request is longer than the model's context window. */
const overflowPattern =
  /context_length_exceeded|maximum context length|context window|prompt is too long|input is too long|too many (?:input )?tokens|exceeds? the (?:maximum )?(?:context|token|input)|request_too_large/i;

/**
 * Recognises a context-overflow error from a model called through the AI SDK (an `APICallError` whose
 * message or response body says the request is too long, such as OpenAI's `context_length_exceeded` or
 * Anthropic's `prompt is too long`), with the token numbers when the provider gave them. `undefined` for any
 * other error. Causes are followed.
 */
export function parseContextOverflow(error: unknown): ContextOverflow | undefined {
  const seen = new Set<unknown>();
  for (let current = error; isRecord(current) && !seen.has(current); current = current.cause) {
    seen.add(current);
    const texts = [current.message, current.responseBody, safeStringify(current.data)].filter(
      (text): text is string => typeof text === 'string',
    );
    const text = texts.join('\n');
    if (!overflowPattern.test(text)) continue;
    return {
      message: typeof current.message === 'string' ? current.message : text,
      ...overflowFiguresOfText(text),
    };
  }
  return undefined;
}

function safeStringify(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
