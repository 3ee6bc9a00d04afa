/** What a retention probe stands for. */
export type ProbeKind = 'task' | 'request' | 'file' | 'command' | 'error' | 'expected-action';

/** The probe kinds in report order. */
export const probeKinds: readonly ProbeKind[] = [
  'task',
  'request',
  'file',
  'command',
  'error',
  'expected-action',
];

/**
 * A fact the agent may still need, as a piece of text: retained when the text is still present in the
 * compacted context (after whitespace is collapsed on both sides).
 */
export interface Probe {
  kind: ProbeKind;
  text: string;
}

/** Collapses runs of whitespace to one space, so that re-wrapped or re-indented text still matches. */
export function normalizeText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The first `characters` characters of the normalized text. */
export function leadingText(text: string, characters: number): string {
  return normalizeText(text).slice(0, characters).trim();
}
