import { planArchiveSearch } from './archive-search-plan.js';
import { archiveSearchScore, archiveSearchSnippet } from './archive-search-text.js';
import type { ArchiveSearchHit, ArchiveSearchQuery, CompactionRecord } from './compaction-store.js';

/** One session's records, oldest first, as `CompactionStore.list` answers them. */
export interface SessionRecords {
  sessionId: string;
  records: readonly CompactionRecord[];
}

interface Candidate {
  hit: Omit<ArchiveSearchHit, 'snippet'>;
  text: string;
  score: number;
  /** Later writes have larger numbers, to order equal matches written at the same time. */
  order: number;
}

/**
 * `CompactionStore.searchArchived` by reading every archived item: what a store without an index of
 * its own answers with. Rejects a query that cannot run with `InvalidSearchQueryError`.
 */
export function searchArchivedRecords(
  sessions: Iterable<SessionRecords>,
  query: ArchiveSearchQuery,
): ArchiveSearchHit[] {
  const { terms, sessionId, limit } = planArchiveSearch(query);
  const candidates: Candidate[] = [];
  let order = 0;
  for (const session of sessions) {
    if (sessionId !== undefined && session.sessionId !== sessionId) continue;
    const seen = new Set<string>();
    // Newest first, so a handle archived again is found in its newest record.
    for (const record of session.records.toReversed()) {
      for (const item of (record.archived ?? []).toReversed()) {
        order -= 1;
        if (seen.has(item.handle)) continue;
        seen.add(item.handle);
        const text = item.text.normalize('NFC');
        const score = archiveSearchScore(text, terms);
        if (score === undefined) continue;
        const { round, startedAt: archivedAt } = record.event;
        const hit = {
          sessionId: session.sessionId,
          handle: item.handle,
          label: item.label,
          round,
          archivedAt,
        };
        candidates.push({ hit, text, score, order });
      }
    }
  }
  return candidates
    .sort(
      (left, right) =>
        right.score - left.score ||
        compareText(right.hit.archivedAt, left.hit.archivedAt) ||
        right.order - left.order,
    )
    .slice(0, limit)
    .map(({ hit, text }) => ({ ...hit, snippet: archiveSearchSnippet(text, terms) }));
}

function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
