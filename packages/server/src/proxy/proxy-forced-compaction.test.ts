import Anthropic from '@anthropic-ai/sdk';
import { compactedRequestViolations } from '@compaction/testing';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerWithToolCalls, runAgent, tools } from './__fixtures__/coding-agent.js';
import { type RunningProxy, startProxy } from './__fixtures__/start-proxy.js';

// `POST /compaction/conversations/{key}/compact` marks a conversation: its next request through the proxy is
// compacted, with `force` and the given instructions, although it is far under its target; the requests after
// it start with the compacted turns, and the one after is not compacted again.

let upstream: TestServer;
let proxy: RunningProxy;
beforeAll(async () => {
  upstream = await startTestServer();
  upstream.handle('/v1/messages', answerWithToolCalls(upstream));
  proxy = await startProxy([upstream.url], { 'context-window': '200k' });
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

const mark = (key: string, body: unknown, type = 'application/json') =>
  fetch(`${proxy.url}/compaction/conversations/${encodeURIComponent(key)}/compact`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: JSON.stringify(body),
  });

const client = (conversation: string) =>
  new Anthropic({
    apiKey: 'client-key',
    baseURL: proxy.url,
    maxRetries: 0,
    defaultHeaders: { 'x-compaction-conversation': conversation },
  });

describe('compaction proxy: forced compaction', () => {
  it("compacts a marked conversation's next request under its target, once", async () => {
    const { history } = await runAgent(client('marked'), 8);
    expect(proxy.lines).toHaveLength(0);
    // As `compaction_status` names it: the store's session id.
    const marked = await mark('proxy:named:marked', { instructions: 'Keep the file paths.' });
    expect(marked.status).toBe(202);
    expect(await marked.json()).toMatchObject({ conversation: 'named:marked', pending: true });

    const before = upstream.requests.length;
    const { sent } = await runAgent(client('marked'), 2, { history });
    const [forced, after] = upstream.requests
      .slice(before)
      .map((request) => request.body as Record<string, unknown>);
    expect(proxy.lines).toHaveLength(1);
    expect(proxy.lines[0]).toContain('trigger manual');
    expect(JSON.stringify(forced!.messages).length).toBeLessThan(JSON.stringify(sent[0]).length);
    const original = (messages: unknown) => ({
      model: 'claude-sonnet-5-5',
      max_tokens: 1024,
      system: 'You are a careful coding agent.',
      tools,
      messages,
    });
    expect(compactedRequestViolations('anthropic', original(sent[0]), forced)).toEqual([]);
    expect(compactedRequestViolations('anthropic', original(sent[1]), after)).toEqual([]);
    // The request after it starts with the compacted turns, uncompacted itself.
    const turns = JSON.stringify(forced!.messages).slice(0, -1);
    expect(JSON.stringify(after!.messages).startsWith(turns)).toBe(true);
    expect(proxy.server.status().compactions).toBe(1);
  });

  it('takes the name a client gave in its header as the key', async () => {
    const { history } = await runAgent(client('by-name'), 6);
    const linesBefore = proxy.lines.length;
    expect(await (await mark('by-name', {})).json()).toMatchObject({ conversation: 'named:by-name' });
    await runAgent(client('by-name'), 1, { history });
    expect(proxy.lines.slice(linesBefore)).toEqual([
      expect.stringMatching(/conversation by-name: .*trigger manual/),
    ]);
  });

  it('marks whichever conversation sends the next request with "next"', async () => {
    const { history } = await runAgent(client('unnamed-next'), 6);
    const linesBefore = proxy.lines.length;
    expect((await mark('next', {})).status).toBe(202);
    await runAgent(client('unnamed-next'), 1, { history });
    expect(proxy.lines.slice(linesBefore)).toEqual([
      expect.stringMatching(/conversation unnamed-next: .*trigger manual/),
    ]);
  });

  it('refuses what is not a JSON mark', async () => {
    expect((await mark('a', {}, 'text/plain')).status).toBe(415);
    expect((await mark('a', { instructions: 3 })).status).toBe(400);
    expect((await mark('a', { force: true })).status).toBe(400);
    expect((await mark('has space', {})).status).toBe(400);
    const get = await fetch(`${proxy.url}/compaction/conversations/a/compact`);
    expect(get.status).toBe(405);
  });
});
