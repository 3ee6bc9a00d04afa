import { createRecallTool } from '@compaction/recall';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import type { CompactionMcpContext } from './compaction-mcp-context.js';
import { findArchivedSession } from './find-archived-session.js';
import { unknownSessionText } from './known-sessions.js';
import { answerOrStoreError, errorResult, textResult } from './tool-result.js';

const description =
  'The conversation was compacted: text was cleared from it to save room, and each placeholder names a ' +
  'handle, as recall "<handle>". Pass that handle to get the text back exactly as it was. For long texts ' +
  'ask for a line range (fromLine, toLine) or only the lines containing a pattern. Answers are bounded in ' +
  'size and say when they were cut and how to read on. When you remember words but not the handle, use ' +
  'search first.';

/** The same arguments as the recall tool of the loops, and the session to read. */
const inputSchema = {
  handle: z.string().describe('The handle a placeholder named, such as "a1b2c3d4".'),
  fromLine: z.number().int().min(1).optional().describe('First line to return, counting from 1.'),
  toLine: z.number().int().min(1).optional().describe('Last line to return, included.'),
  pattern: z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .describe('Return only the lines containing this text (case-insensitive), with their line numbers.'),
  session: z
    .string()
    .min(1)
    .optional()
    .describe('The conversation the handle belongs to; leave it out to look in every conversation.'),
};

/** Registers `recall`: what the recall tool answers, from the given session, the server's, or any. */
export function registerRecallTool(server: McpServer, context: CompactionMcpContext): void {
  server.registerTool(
    'recall',
    { title: 'Recall archived text', description, inputSchema, annotations: { readOnlyHint: true } },
    ({ session, ...request }) =>
      answerOrStoreError('recall', async () => {
        const chosen = session ?? context.sessionId;
        if (chosen !== undefined) {
          const unknown = await unknownSessionText('recall', context.store, chosen);
          if (unknown !== undefined) return errorResult(unknown);
        }
        const sessionId = chosen ?? (await findArchivedSession(context.store, request.handle.trim()));
        if (sessionId === undefined) {
          return errorResult(
            `recall: no archived text "${request.handle}" in any conversation of the compaction store: use ` +
              'a handle a placeholder names, or search for words you remember.',
          );
        }
        const tool = createRecallTool({
          store: context.store,
          sessionId,
          maximumCharacters: context.maximumCharacters,
        });
        const answer = await tool.execute(request);
        return answer.status === 'found' ? textResult(answer.text) : errorResult(answer.text);
      }),
  );
}
