import { InMemoryCompactionStore, InvalidOptionsError } from '@compaction/core';
import { type RecordedRequest, startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectClient } from './__fixtures__/connect-client.js';
import { createCompactionMcpServer } from './compaction-mcp-server.js';

// The `compact` tool through the SDK's client: it asks the configured proxy (to compact a conversation's next
// request) or serve (to compact a session now), both stood in for by a loopback server that records what it
// was asked; without either configured, it says how to configure one.

const store = new InMemoryCompactionStore();
let service: TestServer;
const clients: Client[] = [];
beforeAll(async () => {
  service = await startTestServer();
  service.handle('/compaction/conversations/named%3Aagent-1/compact', () => ({
    status: 202,
    body: { conversation: 'named:agent-1', pending: true },
  }));
  service.handle('/compaction/conversations/next/compact', () => ({ status: 202, body: { pending: true } }));
  service.handle('/v1/sessions/task-7/compact', (request: RecordedRequest) =>
    request.headers.authorization === 'Bearer serve-secret'
      ? { body: { compacted: true, event: { tokensBefore: 900, tokensAfter: 300 } } }
      : { status: 401, body: { error: { code: 'unauthorized', message: 'missing or wrong bearer token' } } },
  );
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await service.close();
});

async function client(settings: Omit<Parameters<typeof connectClient>[0], 'store'>) {
  const connected = await connectClient({ store, ...settings });
  clients.push(connected);
  return connected;
}

describe('the compact tool', () => {
  it('says how to configure a proxy or serve when it has neither', async () => {
    const answer = await callTool(await client({}), 'compact', { instructions: 'Keep the paths.' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('--proxy <url');
    expect(answer.text).toContain('--serve <url');
  });

  it("asks the proxy to compact a conversation's next request, with the instructions", async () => {
    const proxied = await client({ compactTarget: { kind: 'proxy', url: service.url } });
    const answer = await callTool(proxied, 'compact', {
      conversation: 'proxy:named:agent-1',
      instructions: 'Keep the paths.',
    });
    expect(answer).toMatchObject({ isError: false });
    expect(answer.text).toContain('next request of "named:agent-1"');
    const request = service.requests.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toEqual({ instructions: 'Keep the paths.' });
    // Without a conversation: whichever sends the proxy its next request.
    expect((await callTool(proxied, 'compact', {})).text).toContain('the next request through the proxy');
    expect(service.requests.at(-1)!.path).toBe('/compaction/conversations/next/compact');
  });

  it('compacts a serve session with force and its token, and reports a refusal as an error', async () => {
    const served = await client({
      compactTarget: { kind: 'serve', url: `${service.url}/`, token: 'serve-secret' },
      sessionId: 'task-7',
    });
    const answer = await callTool(served, 'compact', { instructions: 'Keep the paths.' });
    expect(answer).toEqual({
      isError: false,
      text: 'Session "task-7" compacted: 900 -> 300 tokens; what was removed is archived.',
    });
    expect(service.requests.at(-1)!.body).toEqual({ force: true, instructions: 'Keep the paths.' });
    const tokenless = await client({
      compactTarget: { kind: 'serve', url: service.url },
      sessionId: 'task-7',
    });
    expect(await callTool(tokenless, 'compact', {})).toEqual({
      isError: true,
      text: 'compact: the serve answered 401: missing or wrong bearer token',
    });
  });

  it('answers a service it cannot reach with an error, and refuses a target that is no http URL', async () => {
    const closed = await startTestServer();
    const url = closed.url;
    await closed.close();
    const unreachable = await client({ compactTarget: { kind: 'proxy', url } });
    const answer = await callTool(unreachable, 'compact', {});
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain(`could not reach the proxy at ${url}`);
    expect(() =>
      createCompactionMcpServer({ store, compactTarget: { kind: 'proxy', url: 'ftp://host' } }),
    ).toThrow(InvalidOptionsError);
  });
});
