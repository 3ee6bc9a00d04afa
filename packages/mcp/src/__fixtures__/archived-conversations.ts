import { type CompactionStore, type Compactor, createCompactor, type Message } from '@compaction/core';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { generateCodingHistory } from '@compaction/testing';

/** A Compactor that masks old tool results down to a fifth of the window into `store`, archiving them. */
export function archivingCompactor(store: CompactionStore, contextWindow = 200_000): Compactor {
  return createCompactor({
    strategy: createToolResultTruncation({ mode: 'mask' }),
    budget: { contextWindow, target: 0.2 },
    store,
    archive: true,
  });
}

/**
 * Compacts `messages` once into `store` under `sessionId` with `compactor` (a new archiving one when none is
 * given): what a real Compactor run leaves in a store. Returns the compacted history.
 */
export async function archiveConversation(
  store: CompactionStore,
  messages: readonly Message[],
  sessionId: string,
  compactor: Compactor = archivingCompactor(store),
): Promise<Message[]> {
  const result = await compactor.compact(messages, { sessionId });
  if (!result.compacted) throw new Error(`${sessionId}: nothing was compacted (${result.skipped})`);
  return result.messages;
}

/**
 * Two sessions of generated coding history: `first` compacted twice by one Compactor (the second time with
 * more turns after the first result), `second` once. Works without the shared transcripts.
 */
export async function archiveGeneratedSessions(store: CompactionStore): Promise<void> {
  const history = generateCodingHistory({ messages: 240, seed: 7 });
  const compactor = archivingCompactor(store);
  const firstRound = await archiveConversation(store, history.slice(0, 161), 'first', compactor);
  await archiveConversation(store, [...firstRound, ...history.slice(161)], 'first', compactor);
  await archiveConversation(store, generateCodingHistory({ messages: 120, seed: 11 }), 'second');
}
