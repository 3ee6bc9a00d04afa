import { type ArchiveSearchHit, InvalidOptionsError } from '@compaction/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import type { CompactionMcpContext } from './compaction-mcp-context.js';
import { unknownSessionText } from './known-sessions.js';
import { answerOrStoreError, errorResult, textResult } from './tool-result.js';

/** Hits in one `search` answer when the call gives no limit. */
export const defaultSearchLimit = 10;
/** The most hits one `search` call may ask for. */
export const maximumSearchLimit = 50;

const description =
  'Searches the text that compactions cleared from the conversation (tool outputs, files read, older ' +
  'turns). Use it when you remember words, a name or an error message but not the handle of the ' +
  'placeholder: it answers the best matches first, each with a snippet and the handle to pass to recall ' +
  'for the whole text.';

const inputSchema = {
  query: z.string().min(1).max(1000).describe('Words or a phrase to look for.'),
  session: z
    .string()
    .min(1)
    .optional()
    .describe('Only this conversation; leave it out for the default conversation, or every one.'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(maximumSearchLimit)
    .optional()
    .describe(`Most matches to return (default ${defaultSearchLimit}).`),
};

/** Registers `search`: the store's full-text search of its archive, or a tool error when it has none. */
export function registerSearchTool(server: McpServer, context: CompactionMcpContext): void {
  server.registerTool(
    'search',
    { title: 'Search archived text', description, inputSchema, annotations: { readOnlyHint: true } },
    ({ query, session, limit }) =>
      answerOrStoreError('search', async () => {
        const { store } = context;
        if (typeof store.searchArchived !== 'function') {
          return errorResult(
            'search: this compaction store cannot search its archive (it has no full-text search); recall ' +
              'by the handle a placeholder names, or list the handles with compaction_status.',
          );
        }
        const sessionId = session ?? context.sessionId;
        if (sessionId !== undefined) {
          const unknown = await unknownSessionText('search', store, sessionId);
          if (unknown !== undefined) return errorResult(unknown);
        }
        try {
          const hits = await store.searchArchived({
            text: query,
            limit: limit ?? defaultSearchLimit,
            ...(sessionId === undefined ? {} : { sessionId }),
          });
          return textResult(describeHits(query, hits));
        } catch (error) {
          // A query with nothing to search for (only quotes or spaces) is the model's to change, not a failure.
          if (InvalidOptionsError.isInstance(error)) return errorResult(`search: ${error.message}`);
          throw error;
        }
      }),
  );
}

/** The hits as the model reads them: the handle first, then where it came from and the snippet. */
function describeHits(query: string, hits: readonly ArchiveSearchHit[]): string {
  if (hits.length === 0) {
    return `No archived text matches "${query}". Try other words, or fewer of them.`;
  }
  const lines = [`${hits.length} archived ${hits.length === 1 ? 'item matches' : 'items match'} "${query}":`];
  hits.forEach((hit, index) => {
    lines.push(
      `${index + 1}. recall "${hit.handle}" (${hit.label}; session "${hit.sessionId}", round ${hit.round}, ` +
        `archived ${hit.archivedAt})`,
      `   ${hit.snippet.replaceAll('\n', ' ')}`,
    );
  });
  return lines.join('\n');
}
