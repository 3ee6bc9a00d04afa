import type { CompactionStore } from '@compaction/core';
import { sessionsMostRecentFirst } from './sessions-most-recent-first.js';

/**
 * The session whose newest compaction archived `handle`: handles come from the text, so one text archived in
 * two conversations has one handle, and the newest copy is the one a model most likely saw. `undefined` when
 * no session holds it. With the store's `sessionUsage`, sessions are read from the most recently active on,
 * and the search stops at the first that was last active before the newest compaction found so far: every
 * session's records are read only when the handle is in none.
 */
export async function findArchivedSession(
  store: CompactionStore,
  handle: string,
): Promise<string | undefined> {
  let newest: { sessionId: string; startedAt: string } | undefined;
  for (const { sessionId, lastActivityAt } of await sessionsMostRecentFirst(store)) {
    if (newest !== undefined && lastActivityAt !== undefined && lastActivityAt < newest.startedAt) break;
    const records = await store.list(sessionId);
    const record = records.findLast((candidate) =>
      candidate.archived?.some((item) => item.handle === handle),
    );
    if (record !== undefined && (newest === undefined || record.event.startedAt > newest.startedAt)) {
      newest = { sessionId, startedAt: record.event.startedAt };
    }
  }
  return newest?.sessionId;
}
