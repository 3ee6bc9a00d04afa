import type { ResolvedNoteBeforeCompaction } from '@compaction/agent-loop';
import type { Compactor, Message } from '@compaction/core';
import { type CompactRequests, compactOrPrepare } from './compaction-compact-tool.js';
import { type CompactionNoteSettings, noteBeforeCompaction } from './compaction-note.js';
import { signedReasoningFirst } from './signed-reasoning-first.js';

/** What an integration compacts with: its compactor and session, the compact tool and the note turn, if on. */
export interface CallHistoryContext {
  compactor: Compactor;
  sessionId?: string | undefined;
  /** With `compactTool`: the compactions the model asked for. */
  compactRequests?: CompactRequests | undefined;
  /** With `beforeCompaction`: the note turn before an automatic compaction. */
  notes?: (ResolvedNoteBeforeCompaction & Pick<CompactionNoteSettings, 'onNote'>) | undefined;
}

/**
 * The history that stands in for a call's `messages` from now on, or undefined when they go as they are: a
 * compaction the model asked for runs first, forced; else, before an automatic one, the note turn (`write`,
 * stopped by `signal` or its timeout) adds the model's note after the messages, pinned, and a note stands in
 * the history even when nothing was compacted.
 */
export async function callHistory(
  context: CallHistoryContext,
  messages: readonly Message[],
  signal: AbortSignal | undefined,
  write: (signal: AbortSignal, notes: ResolvedNoteBeforeCompaction) => Promise<string>,
): Promise<Message[] | undefined> {
  const { compactor, sessionId, notes } = context;
  const requested = context.compactRequests?.take(messages);
  const note =
    requested !== undefined || notes === undefined
      ? undefined
      : await noteBeforeCompaction({
          compactor,
          sessionId,
          messages,
          settings: notes,
          write: (inner) => write(inner, notes),
          signal,
        });
  const history = note === undefined ? [...messages] : [...messages, note];
  const options = sessionId === undefined ? {} : { sessionId };
  const result = await compactOrPrepare(compactor, history, options, requested);
  // Compaction can leave assistant messages side by side, which Anthropic merges into one turn.
  if (result.compacted) return signedReasoningFirst(result.messages);
  return note === undefined ? undefined : history;
}
