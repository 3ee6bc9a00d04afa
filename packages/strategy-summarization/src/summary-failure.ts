import type { GenerateResult } from '@compaction/core';

/** Why a summary was not used. */
export type SummaryFailureReason =
  | 'provider-error'
  | 'empty'
  | 'cut-off'
  | 'content-filter'
  | 'malformed'
  | 'too-long'
  | 'summarizer-window-too-small'
  | 'no-room';

/**
 * A section a summary must have, under any of its names: the default sections are accepted under their name
 * in any shipped language, so a summary that answers in another of them than asked is complete all the same.
 */
export type RequiredSection = readonly string[];

/** A failed summary attempt: why, and what was seen. */
export interface SummaryFailure {
  reason: SummaryFailureReason;
  message: string;
  cause?: unknown;
}

/**
 * Checks a summarizer answer. Empty text, an answer cut off at the output limit, a filtered answer and one
 * missing a required section all fail: a refusal or half a summary must never replace the history.
 */
export function checkSummary(
  result: GenerateResult,
  requiredSections: readonly RequiredSection[],
): SummaryFailure | undefined {
  if (typeof result?.text !== 'string') {
    return { reason: 'malformed', message: 'the provider returned no text field' };
  }
  const text = result.text.trim();
  if (text.length === 0) return { reason: 'empty', message: 'the summarizer returned no text' };
  if (result.finishReason === 'length') {
    return { reason: 'cut-off', message: 'the summary was cut off at the output-token limit' };
  }
  if (result.finishReason === 'content-filter') {
    return { reason: 'content-filter', message: 'the summary was stopped by a content filter' };
  }
  const headings = headingsOf(text);
  const missing = requiredSections.filter(
    (names) => !names.some((name) => headings.some((heading) => isHeadingOf(heading, name))),
  );
  if (missing.length > 0) {
    const names = missing.map((names) => names[0]).join(', ');
    return { reason: 'malformed', message: `the summary lacks the sections: ${names}` };
  }
  return undefined;
}

/**
 * The lines of the text as headings could read (Markdown `#`, bold or plain), without their marks and
 * numbering (`1.`, `2)`, and the Chinese and Japanese `一、`), lower-cased.
 */
function headingsOf(text: string): string[] {
  return text.split('\n').map((line) =>
    line
      .trim()
      .replace(/^#{1,6}\s*/, '')
      .replace(/^\*\*|\*\*$/g, '')
      .replace(/^(?:\d+[.)]|[一二三四五六七八九十]+[、.．])\s*/, '')
      .trim()
      .toLowerCase(),
  );
}

/** Whether a heading starts with the section's name (and says little more). */
function isHeadingOf(heading: string, section: string): boolean {
  const name = section.toLowerCase();
  return heading.startsWith(name) && heading.length <= name.length + 40;
}
