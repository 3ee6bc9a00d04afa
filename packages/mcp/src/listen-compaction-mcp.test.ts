import { request } from 'node:http';
import { InMemoryCompactionStore, InvalidOptionsError } from '@compaction/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveGeneratedSessions } from './__fixtures__/archived-conversations.js';
import { type CompactionMcpListener, listenCompactionMcp } from './listen-compaction-mcp.js';

// The Streamable HTTP transport through the SDK's own client, on loopback.

const store = new InMemoryCompactionStore();
const listeners: CompactionMcpListener[] = [];

async function listen(settings: { token?: string } = {}): Promise<CompactionMcpListener> {
  const listener = await listenCompactionMcp({ store, sessionId: 'second', ...settings });
  listeners.push(listener);
  return listener;
}

/** A client connected over HTTP, sending `token` as a bearer token when given. */
async function connect(url: string, token?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    ...(token === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  });
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** A raw POST of a JSON-RPC call, for what the SDK's client does not let a test send. */
function post(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    sent.on('error', reject);
    sent.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }));
  });
}

beforeAll(async () => {
  await archiveGeneratedSessions(store);
});

afterAll(async () => {
  await Promise.all(listeners.map((listener) => listener.close()));
});

describe('listenCompactionMcp', () => {
  it('serves the tools on loopback, recalling archived text exactly', async () => {
    const { url } = await listen();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connect(url);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'compact',
      'compaction_status',
      'recall',
      'search',
    ]);
    const [record] = await store.list('second');
    const item = record!.archived![0]!;
    const result = (await client.callTool({
      name: 'recall',
      arguments: { handle: item.handle },
    })) as CallToolResult;
    expect(result.content).toEqual([{ type: 'text', text: item.text }]);
    const unknown = (await client.callTool({
      name: 'recall',
      arguments: { handle: 'nothing1' },
    })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    await client.close();
  });

  it('answers only requests with the bearer token when it has one', async () => {
    const { url } = await listen({ token: 'secret-token' });
    await expect(connect(url)).rejects.toMatchObject({ code: 401 });
    await expect(connect(url, 'wrong-token')).rejects.toMatchObject({ code: 401 });
    const refused = await post(url, {});
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body).error.message).toContain('Authorization: Bearer');
    const client = await connect(url, 'secret-token');
    const status = (await client.callTool({ name: 'compaction_status', arguments: {} })) as CallToolResult;
    expect(status.isError).not.toBe(true);
    expect(status.content[0]).toMatchObject({
      text: expect.stringMatching(/^Session "second": 1 compaction round/),
    });
    await client.close();
  });

  it('refuses a request addressed to another host name without a token, and other paths', async () => {
    const { url } = await listen();
    const rebound = await post(url, { host: 'attacker.example:80' });
    expect(rebound.status).toBe(403);
    expect((await post(url.replace(/\/mcp$/, '/other'), {})).status).toBe(404);
    expect((await post(url, {})).status).toBe(200);
  });

  it('refuses to listen beyond loopback without a token, or with a blank one', async () => {
    await expect(listenCompactionMcp({ store, host: '0.0.0.0' })).rejects.toThrow(InvalidOptionsError);
    await expect(listenCompactionMcp({ store, host: '0.0.0.0' })).rejects.toThrow(
      /beyond loopback: give a token/,
    );
    await expect(listenCompactionMcp({ store, token: '  ' })).rejects.toThrow(/token/);
  });
});
