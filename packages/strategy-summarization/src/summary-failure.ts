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
  requiredSections: readonly string[],
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
  const missing = requiredSections.filter((section) => !hasSection(text, section));
  if (missing.length > 0) {
    return { reason: 'malformed', message: `the summary lacks the sections: ${missing.join(', ')}` };
  }
  return undefined;
}

/** Whether a line of the text is a heading (Markdown `#`, bold or plain) that starts with the section's name. */
function hasSection(text: string, section: string): boolean {
  const name = section.toLowerCase();
  return text.split('\n').some((line) => {
    const heading = line
      .trim()
      .replace(/^#{1,6}\s*/, '')
      .replace(/^\*\*|\*\*$/g, '')
      .replace(/^\d+[.)]\s*/, '')
      .trim()
      .toLowerCase();
    return heading.startsWith(name) && heading.length <= name.length + 40;
  });
}
