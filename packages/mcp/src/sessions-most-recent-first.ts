import type { CompactionStore } from '@compaction/core';

/** The sessions, the most recently active first when the store says when each was last active. */
export async function sessionsMostRecentFirst(
  store: CompactionStore,
): Promise<Array<{ sessionId: string; lastActivityAt?: string }>> {
  if (typeof store.sessionUsage !== 'function') {
    return (await store.sessions()).map((sessionId) => ({ sessionId }));
  }
  return (await store.sessionUsage())
    .map(({ sessionId, lastActivityAt }) => ({ sessionId, lastActivityAt }))
    .sort((first, second) => second.lastActivityAt.localeCompare(first.lastActivityAt));
}
