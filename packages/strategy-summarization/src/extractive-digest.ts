import { type Message, textOf } from '@compaction/core';
import { truncateText } from '@compaction/strategy-kit';
import { cutToTokens } from './shorten-text.js';

/** What {@link extractiveDigest} is built from. */
export interface ExtractiveDigestInput {
  /** The original task (kept verbatim elsewhere in the history; quoted here so the digest reads on its own). */
  task: Message | undefined;
  /** The newest user request (also kept verbatim). */
  latestRequest: Message | undefined;
  /** The earlier summary's text, which must not be lost. */
  previousSummary: string | undefined;
  /** The evicted span, for its last assistant notes. */
  evicted: readonly Message[];
  /** Most tokens of the digest. */
  tokens: number;
  countText: (text: string) => number;
}

/**
 * The fallback summary, built without the LLM: the original task and the newest request (quoted briefly, as
 * both stay verbatim in the history), the earlier summary, and the last things the assistant said in the
 * evicted span. The artifact trail is appended by the caller, as for any summary.
 */
export function extractiveDigest(input: ExtractiveDigestInput): string {
  const excerpt = (message: Message | undefined) =>
    message === undefined ? 'none' : truncateText(textOf(message).trim(), 300) || '(no text)';
  const notes = input.evicted
    .filter((message) => message.role === 'assistant')
    .map((message) => textOf(message).trim())
    .filter((text) => text.length > 0)
    .slice(-3)
    .map((text) => `- ${truncateText(text.replace(/\s+/g, ' '), 300)}`);
  const sections = [
    '(The summarizer was not available; this digest was extracted without it.)',
    `## Original task\n${excerpt(input.task)}`,
    `## Newest request\n${excerpt(input.latestRequest)}`,
    `## Earlier summary\n${input.previousSummary ?? 'none'}`,
    `## Last assistant notes in the removed span\n${notes.length > 0 ? notes.join('\n') : 'none'}`,
  ];
  return cutToTokens(sections.join('\n\n'), input.tokens, input.countText);
}
