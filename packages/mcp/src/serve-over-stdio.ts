import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { type CompactionMcpServerSettings, createCompactionMcpServer } from './compaction-mcp-server.js';

/** Settings of {@link serveCompactionMcpOverStdio}. */
export interface StdioServingSettings extends CompactionMcpServerSettings {
  /** Where requests arrive; the process's standard input by default. */
  input?: Readable;
  /** Where answers go, and nothing else; the process's standard output by default. */
  output?: Writable;
}

/**
 * Serves the compaction MCP server over standard input and output, as agents start local MCP servers, and
 * resolves when the client closes its end. Logs must go to standard error: standard output carries only
 * the protocol.
 */
export async function serveCompactionMcpOverStdio(settings: StdioServingSettings): Promise<void> {
  const { input, output, ...serverSettings } = settings;
  const server = createCompactionMcpServer(serverSettings);
  const transport = new StdioServerTransport(input, output);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  const stdin = input ?? process.stdin;
  // The transport does not notice the end of its input; the client closing its end is the end of the session.
  const end = () => void server.close();
  stdin.once('end', end);
  try {
    await server.connect(transport);
    await closed;
  } finally {
    stdin.off('end', end);
  }
}
