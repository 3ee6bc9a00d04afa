import type { CompactionRecord } from '@compaction/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import type { CompactionMcpContext } from './compaction-mcp-context.js';
import { unknownSessionText } from './known-sessions.js';
import { sessionsMostRecentFirst } from './sessions-most-recent-first.js';
import { answerOrStoreError, errorResult, textResult } from './tool-result.js';

/** Sessions listed when the call names none: each costs a read of its records. */
const listedSessions = 100;

const description =
  'Tells how this conversation was compacted: each compaction round with the tokens before and after, and ' +
  'every archived text with its handle and what it held, so you can recall one. Without a session and ' +
  'without a default one, lists the conversations in the store with their rounds and archived texts.';

const inputSchema = {
  session: z
    .string()
    .min(1)
    .optional()
    .describe('The conversation; leave it out for the default conversation, or a list of them all.'),
};

/** Registers `compaction_status`: a session's rounds and archived handles, or the sessions with counts. */
export function registerStatusTool(server: McpServer, context: CompactionMcpContext): void {
  server.registerTool(
    'compaction_status',
    { title: 'Compaction status', description, inputSchema, annotations: { readOnlyHint: true } },
    ({ session }) =>
      answerOrStoreError('compaction_status', async () => {
        const sessionId = session ?? context.sessionId;
        if (sessionId === undefined) return textResult(await describeSessions(context));
        const unknown = await unknownSessionText('compaction_status', context.store, sessionId);
        if (unknown !== undefined) return errorResult(unknown);
        return textResult(
          describeSession(sessionId, await context.store.list(sessionId), context.maximumCharacters),
        );
      }),
  );
}

/**
 * A session's compaction rounds, oldest first, each with its archived handles. When listing every handle would
 * pass `maximumCharacters`, the older rounds' handles are left out first (the newest are likeliest wanted),
 * each such round saying how many it has and how to find them.
 */
function describeSession(
  sessionId: string,
  records: readonly CompactionRecord[],
  maximumCharacters: number,
): string {
  const archived = records.reduce((total, record) => total + (record.archived?.length ?? 0), 0);
  const header =
    `Session "${sessionId}": ${records.length} compaction ${records.length === 1 ? 'round' : 'rounds'}, ` +
    `${archived} archived ${archived === 1 ? 'text' : 'texts'}.`;
  const rounds = records.map(({ event, archived: items = [] }) => ({
    line:
      `Round ${event.round} at ${event.startedAt} (${event.trigger}, ${event.strategy}): ` +
      `${event.tokensBefore} -> ${event.tokensAfter} tokens, ` +
      `${event.messagesBefore} -> ${event.messagesAfter} messages, ${items.length} archived`,
    items: items.map((item) => `  recall "${item.handle}": ${item.label} (${item.text.length} characters)`),
    listed: false,
  }));
  let room = rounds.reduce((left, round) => left - round.line.length - 1, maximumCharacters - header.length);
  for (const round of rounds.toReversed()) {
    const size = round.items.reduce((total, line) => total + line.length + 1, 0);
    if (size > room) break;
    room -= size;
    round.listed = true;
  }
  const lines = [header];
  for (const round of rounds) {
    lines.push(round.line);
    if (round.listed) lines.push(...round.items);
    else if (round.items.length > 0) {
      lines.push(
        `  (${round.items.length} handles not listed, to keep this answer short: search finds them by ` +
          'what they held)',
      );
    }
  }
  return lines.join('\n');
}

/** The sessions of the store, the most recently active first when the store says, with their counts. */
async function describeSessions({ store }: CompactionMcpContext): Promise<string> {
  const sessions = (await sessionsMostRecentFirst(store)).map((session) => session.sessionId);
  if (sessions.length === 0) return 'The compaction store has no sessions yet: nothing was compacted.';
  const shown = sessions.slice(0, listedSessions);
  const lines = [
    `${sessions.length} ${sessions.length === 1 ? 'session' : 'sessions'} in the compaction store:`,
  ];
  for (const sessionId of shown) {
    const records = await store.list(sessionId);
    const archived = records.reduce((total, record) => total + (record.archived?.length ?? 0), 0);
    lines.push(`  "${sessionId}": ${records.length} compaction rounds, ${archived} archived texts`);
  }
  if (sessions.length > shown.length) {
    lines.push(`  and ${sessions.length - shown.length} more; ask for one by its session id`);
  }
  return lines.join('\n');
}
