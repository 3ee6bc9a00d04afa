import type { MastraPart } from '../mastra-types.js';

/** The reasoning text Mastra sends for a reasoning part: `reasoning`, else its text details joined. */
export function reasoningTextOf(part: Extract<MastraPart, { type: 'reasoning' }>): string {
  if (part.reasoning) return part.reasoning;
  return (part.details ?? []).map((detail) => (detail.type === 'text' ? detail.text : '')).join('');
}
