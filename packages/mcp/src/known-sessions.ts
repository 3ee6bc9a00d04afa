import type { CompactionStore } from '@compaction/core';

/** How many session ids an answer names when it lists them. */
const namedSessions = 5;

/**
 * A tool error's text for a session the store does not have, naming some that it has, so the model can
 * retry with one of them or without a session.
 */
export async function unknownSessionText(
  tool: string,
  store: CompactionStore,
  sessionId: string,
): Promise<string | undefined> {
  const sessions = await store.sessions();
  if (sessions.includes(sessionId)) return undefined;
  const named = sessions.slice(0, namedSessions).map((id) => `"${id}"`);
  const more = sessions.length > named.length ? `, and ${sessions.length - named.length} more` : '';
  const known = named.length === 0 ? 'it has none yet' : `it has ${named.join(', ')}${more}`;
  return `${tool}: no session "${sessionId}" in the compaction store (${known})`;
}
