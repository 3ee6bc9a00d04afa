import type { ArchiveSearchHit } from '@compaction/core';

/** The tool result of a search: each hit's handle, label and snippet, and how to read one whole. */
export function searchAnswerText(query: string, hits: readonly ArchiveSearchHit[]): string {
  if (hits.length === 0) {
    return `No archived text of this conversation matches ${JSON.stringify(query)}: try other or fewer words.`;
  }
  const lines = hits.map(
    (hit) => `- recall "${hit.handle}" (${hit.label}, compaction ${hit.round}): ${hit.snippet}`,
  );
  const count = hits.length === 1 ? '1 archived text matches' : `${hits.length} archived texts match`;
  return [
    `${count} ${JSON.stringify(query)}, best first (matches marked **like this**):`,
    ...lines,
    'Call recall with one of these handles to read it.',
  ].join('\n');
}
