import type { IncomingMessage, ServerResponse } from 'node:http';
import { InvalidOptionsError } from '@compaction/core';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { hasBearerToken } from './bearer-token.js';
import { type CompactionMcpServerSettings, createCompactionMcpServer } from './compaction-mcp-server.js';
import { hostnameOfHeader, isLoopbackHost } from './loopback.js';

/** Settings of {@link createCompactionMcpRequestHandler}. */
export interface CompactionMcpHttpSettings extends CompactionMcpServerSettings {
  /** When set, every request must carry `Authorization: Bearer <token>`; others get 401. */
  token?: string;
}

/** Answers one HTTP request; mount it in a Node server of your own, or use {@link listenCompactionMcp}. */
export type CompactionMcpRequestHandler = (
  request: IncomingMessage,
  response: ServerResponse,
) => Promise<void>;

/** The path the MCP endpoint answers on. */
export const mcpPath = '/mcp';

/** Largest request body: tool calls are a few hundred bytes. */
const maximumBodyBytes = 1024 * 1024;

/**
 * The Streamable HTTP endpoint of the compaction MCP server at `/mcp`, stateless: each POST is answered by a
 * server of its own, so nothing is kept between requests. Without a token, only requests addressed to a
 * loopback name are answered: a web page that rebinds its own domain to 127.0.0.1 cannot read the archive.
 */
export function createCompactionMcpRequestHandler(
  settings: CompactionMcpHttpSettings,
): CompactionMcpRequestHandler {
  const { token, ...serverSettings } = settings;
  checkToken(token);
  // Built once so that wrong settings fail now rather than at the first request.
  createCompactionMcpServer(serverSettings);
  return async (request, response) => {
    if (token !== undefined && !hasBearerToken(request.headers.authorization, token)) {
      return answer(response, 401, 'a bearer token is required: send Authorization: Bearer <token>', {
        'www-authenticate': 'Bearer',
      });
    }
    if (token === undefined && !isLoopbackHost(hostnameOfHeader(request.headers.host) ?? '')) {
      return answer(response, 403, 'without a token, only requests to a loopback host name are answered');
    }
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== mcpPath) return answer(response, 404, `no such path: the MCP endpoint is ${mcpPath}`);
    if (request.method !== 'POST') {
      return answer(response, 405, 'this stateless MCP endpoint takes POST only', { allow: 'POST' });
    }
    const body = await readJsonBody(request);
    if (body.kind === 'too-large')
      return answer(response, 413, `bodies are at most ${maximumBodyBytes} bytes`);
    if (body.kind === 'invalid') return answer(response, 400, 'the body is not JSON', {}, -32700);
    const server = createCompactionMcpServer(serverSettings);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, body.value);
  };
}

/** A token that is set must be one a client can send. */
function checkToken(token: string | undefined): void {
  if (token === undefined) return;
  if (typeof token !== 'string' || token.trim() === '' || token.trim() !== token) {
    throw new InvalidOptionsError({
      subject: 'compaction MCP server',
      issues: [{ path: 'token', message: 'must be a secret without surrounding whitespace, not blank' }],
    });
  }
}

type JsonBody = { kind: 'json'; value: unknown } | { kind: 'invalid' } | { kind: 'too-large' };

/** The request's body as JSON, read up to the size bound. */
async function readJsonBody(request: IncomingMessage): Promise<JsonBody> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > maximumBodyBytes) return { kind: 'too-large' };
    chunks.push(chunk);
  }
  try {
    return { kind: 'json', value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { kind: 'invalid' };
  }
}

/** An error as a JSON-RPC error object, which MCP clients read. */
function answer(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = -32000,
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
