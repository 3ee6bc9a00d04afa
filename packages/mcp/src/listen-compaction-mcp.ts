import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidOptionsError } from '@compaction/core';
import { isLoopbackHost } from './loopback.js';
import {
  type CompactionMcpHttpSettings,
  createCompactionMcpRequestHandler,
  mcpPath,
} from './mcp-request-handler.js';

/** Settings of {@link listenCompactionMcp}. */
export interface CompactionMcpListenSettings extends CompactionMcpHttpSettings {
  /** The interface. Default `127.0.0.1`, loopback only; any other needs a `token`. */
  host?: string;
  /** The port; 0, the default, picks a free one. */
  port?: number;
}

/** A listening compaction MCP server. */
export interface CompactionMcpListener {
  /** The MCP endpoint, such as `http://127.0.0.1:4321/mcp`. */
  url: string;
  /** The Node HTTP server it listens with. */
  server: Server;
  /** Stops listening and ends open connections. */
  close(): Promise<void>;
}

/**
 * Serves the compaction MCP server over Streamable HTTP at `/mcp`. A host beyond loopback without a token
 * is refused: the archive holds whole conversations, and anyone who reached the port could read them.
 * Rejects with the listen error, such as `EADDRINUSE`.
 */
export async function listenCompactionMcp(
  settings: CompactionMcpListenSettings,
): Promise<CompactionMcpListener> {
  const { host = '127.0.0.1', port = 0, ...handlerSettings } = settings;
  if (!isLoopbackHost(host) && handlerSettings.token === undefined) {
    throw new InvalidOptionsError({
      subject: 'compaction MCP server',
      issues: [
        {
          path: 'host',
          message: `${host} is beyond loopback: give a token, so that only clients that send it read the archive`,
        },
      ],
    });
  }
  const handler = createCompactionMcpRequestHandler(handlerSettings);
  const server = createServer((request, response) => {
    handler(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: String(error) }, id: null }),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  const shown = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  return {
    url: `http://${shown}:${bound.port}${mcpPath}`,
    server,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}
