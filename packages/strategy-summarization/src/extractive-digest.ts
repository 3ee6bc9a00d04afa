import { type Message, textOf } from '@compaction/core';
import type { SummaryLanguage } from './languages/summary-language.js';
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
  /** The language of the digest's headings; what it quotes stays as it was written. */
  language: SummaryLanguage;
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
  const { digest } = input.language;
  const excerpt = (message: Message | undefined) =>
    message === undefined ? digest.none : excerptOf(textOf(message).trim(), 300) || digest.noText;
  const notes = input.evicted
    .filter((message) => message.role === 'assistant')
    .map((message) => textOf(message).trim())
    .filter((text) => text.length > 0)
    .slice(-3)
    .map((text) => `- ${excerptOf(text.replace(/\s+/g, ' '), 300)}`);
  const sections = [
    digest.unavailable,
    `${digest.task}\n${excerpt(input.task)}`,
    `${digest.latestRequest}\n${excerpt(input.latestRequest)}`,
    `${digest.previousSummary}\n${input.previousSummary ?? digest.none}`,
    `${digest.assistantNotes}\n${notes.length > 0 ? notes.join('\n') : digest.none}`,
  ];
  return cutToTokens(sections.join('\n\n'), input.tokens, input.countText);
}

/**
 * The text shortened to about `characters`, its beginning and its end around `…`: a note of what was left out
 * would be in one language inside text written in another.
 */
function excerptOf(text: string, characters: number): string {
  if (text.length <= characters) return text;
  // By code points, so that no character outside the Basic Multilingual Plane is cut in half.
  const points = Array.from(text);
  if (points.length <= characters) return text;
  const head = Math.ceil((characters * 2) / 3);
  return `${points.slice(0, head).join('')} … ${points.slice(points.length - (characters - head)).join('')}`;
}
