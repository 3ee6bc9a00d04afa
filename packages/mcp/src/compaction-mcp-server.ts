import { readFileSync } from 'node:fs';
import { type CompactionStore, InvalidOptionsError } from '@compaction/core';
import { createRecallTool } from '@compaction/recall';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerCompactTool } from './compact-mcp-tool.js';
import { type CompactTarget, checkedTargetUrl } from './compact-target.js';
import type { CompactionMcpContext } from './compaction-mcp-context.js';
import { registerRecallTool } from './recall-mcp-tool.js';
import { registerSearchTool } from './search-mcp-tool.js';
import { registerStatusTool } from './status-mcp-tool.js';

/** Settings of {@link createCompactionMcpServer}. */
export interface CompactionMcpServerSettings {
  /**
   * The store the Compactor, `compaction proxy` or `compaction serve` archived into. `search` runs its
   * `searchArchived`; on a store without it, `search` answers that the store cannot search.
   */
  store: CompactionStore;
  /**
   * The conversation the tools read when a call names none. Without it, `recall` looks a handle up in every
   * session (the newest compaction that archived it), `search` searches them all and `compaction_status`
   * lists them.
   */
  sessionId?: string;
  /**
   * Most characters of archived text in one `recall` answer. Default 20,000 (about 5,000 tokens). A
   * `compaction_status` listing over it leaves the older rounds' handles out.
   */
  maximumCharacters?: number;
  /**
   * Where the `compact` tool asks for a compaction: a running `compaction proxy` (the conversation's next
   * request through it is compacted) or `compaction serve` (the session is compacted at once). Without it,
   * `compact` answers with an error that says how to configure one.
   */
  compactTarget?: CompactTarget;
}

/** What the server tells a client about itself, once, when it connects. */
const instructions =
  'This conversation may have been compacted to fit the context window: what was removed was archived, ' +
  'and placeholders name it as recall "<handle>". Call recall with that handle to read it again, search ' +
  'when you remember words but not the handle, and compaction_status to list the rounds and handles. ' +
  'Call compact to compact the conversation now, with instructions saying what to keep.';

let version: string | undefined;

/** This package's version, as the server reports it to clients; read once (HTTP makes a server per request). */
function packageVersion(): string {
  version ??= (
    JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version;
  return version;
}

/**
 * Creates an MCP server with the tools `recall`, `search`, `compaction_status` and `compact` over a compaction
 * store.
 * Connect it to a transport of the MCP SDK, or serve it with {@link serveCompactionMcpOverStdio} or
 * {@link listenCompactionMcp}. Every failure of a call, a wrong argument or a failing store, is a tool
 * result marked `isError` with a text that says what to do; nothing is thrown to the client.
 */
export function createCompactionMcpServer(settings: CompactionMcpServerSettings): McpServer {
  const context = contextOf(settings);
  const server = new McpServer({ name: 'compaction', version: packageVersion() }, { instructions });
  registerRecallTool(server, context);
  registerSearchTool(server, context);
  registerStatusTool(server, context);
  registerCompactTool(server, context);
  return server;
}

/** The settings checked once, with their defaults. */
function contextOf(settings: CompactionMcpServerSettings): CompactionMcpContext {
  const { store, sessionId } = settings;
  const maximumCharacters = settings.maximumCharacters ?? 20_000;
  if (typeof store?.list !== 'function' || typeof store.sessions !== 'function') {
    throw new InvalidOptionsError({
      subject: 'compaction MCP server',
      issues: [{ path: 'store', message: 'must be a compaction store (with list and sessions)' }],
    });
  }
  if (sessionId !== undefined && (typeof sessionId !== 'string' || sessionId === '')) {
    throw new InvalidOptionsError({
      subject: 'compaction MCP server',
      issues: [{ path: 'sessionId', message: 'must be a session id, not an empty string' }],
    });
  }
  // The recall tool checks the bound; made once here so a bad one fails now, not at the first call.
  createRecallTool({ store, sessionId: sessionId ?? 'default', maximumCharacters });
  const { compactTarget } = settings;
  if (compactTarget !== undefined) {
    try {
      checkedTargetUrl(compactTarget);
    } catch (error) {
      throw new InvalidOptionsError({
        subject: 'compaction MCP server',
        issues: [{ path: 'compactTarget.url', message: (error as Error).message }],
      });
    }
  }
  return {
    store,
    maximumCharacters,
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(compactTarget === undefined ? {} : { compactTarget }),
  };
}
