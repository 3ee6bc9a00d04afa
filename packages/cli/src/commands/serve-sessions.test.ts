import type { Message } from '@compaction/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveClient } from '../../../server/src/serve/__fixtures__/serve-client.js';
import type { LooseJson } from '../__fixtures__/run-binary.js';
import { type RunningServer, startServer } from '../__fixtures__/start-server.js';

// End to end through the built binary: sessions are listed in pages, capped in size, and expire when idle;
// the event stream of a deleted or expired session ends.

const text = (value: string): Message => ({ role: 'user', content: [{ type: 'text', text: value }] });
let server: RunningServer;
let expiring: RunningServer;

beforeAll(async () => {
  [server, expiring] = await Promise.all([
    startServer(['--max-session-size', '16kb', '--trigger', 'off']),
    startServer(['--session-idle', '5s']),
  ]);
});
afterAll(async () => {
  expect(await Promise.all([server?.stop(), expiring?.stop()])).toEqual([0, 0]);
});

/** Reads a server-sent-events stream to its end. */
async function readToEnd(response: Response): Promise<string> {
  let received = '';
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return received;
    received += value;
  }
}

const ended = (sessionId: string, reason: string) =>
  `event: session.ended\ndata: ${JSON.stringify({ sessionId, reason })}\n\n`;

describe('compaction serve: sessions', () => {
  it('lists sessions in creation order, a page at a time', async () => {
    const call = serveClient(server.url);
    const created: string[] = [];
    for (let index = 0; index < 5; index++) {
      const response = await call('/v1/sessions', {
        method: 'POST',
        json: { conversation: [text(`task ${index}`)] },
      });
      created.push(((await response.json()) as LooseJson).id);
    }
    const listed: LooseJson[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const response = await call(`/v1/sessions?limit=2${cursor === undefined ? '' : `&cursor=${cursor}`}`);
      expect(response.status).toBe(200);
      const page = (await response.json()) as LooseJson;
      expect(page.sessions.length).toBeLessThanOrEqual(2);
      listed.push(...page.sessions);
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(pages).toBe(3);
    expect(listed.map((session) => session.id)).toEqual(created);
    expect(listed[0]).toMatchObject({ messages: 1, compactions: 0, bytes: expect.any(Number) });
    expect(Date.parse(listed[0].expiresAt) - Date.parse(listed[0].lastActiveAt)).toBe(30 * 60_000);

    for (const [query, message] of [
      ['limit=0', /limit must be an integer from 1 to 1000/],
      ['limit=1001', /limit must be an integer from 1 to 1000/],
      ['cursor=%2F..', /is not one this server gave/],
    ] as const) {
      const response = await call(`/v1/sessions?${query}`);
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as LooseJson).error.message).toMatch(message);
    }
    for (const id of created) await call(`/v1/sessions/${id}`, { method: 'DELETE' });
  });

  it('refuses an append past the session size limit with 413 and keeps the session as it was', async () => {
    const call = serveClient(server.url);
    const session = (await (
      await call('/v1/sessions', { method: 'POST', json: { conversation: [text('a'.repeat(10_000))] } })
    ).json()) as LooseJson;
    const refused = await call(`/v1/sessions/${session.id}/messages`, {
      method: 'POST',
      json: { messages: [text('b'.repeat(10_000))] },
    });
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as LooseJson).error).toMatchObject({
      code: 'session-too-large',
      message: expect.stringMatching(/over its limit of 16384 bytes; compact it/),
    });
    const state = (await (await call(`/v1/sessions/${session.id}`)).json()) as LooseJson;
    expect(state.messages).toBe(1);
    expect(state.conversation).toEqual([text('a'.repeat(10_000))]);

    // A new session already over the limit is refused and not kept.
    const before = ((await (await call('/v1/health')).json()) as LooseJson).sessions;
    const tooLarge = await call('/v1/sessions', {
      method: 'POST',
      json: { conversation: [text('c'.repeat(20_000))] },
    });
    expect(tooLarge.status).toBe(413);
    expect(((await (await call('/v1/health')).json()) as LooseJson).sessions).toBe(before);
    await call(`/v1/sessions/${session.id}`, { method: 'DELETE' });
  });

  it('ends the event stream of a deleted session', async () => {
    const call = serveClient(server.url);
    const session = (await (await call('/v1/sessions', { method: 'POST', json: {} })).json()) as LooseJson;
    const stream = await call(`/v1/sessions/${session.id}/events`);
    const received = readToEnd(stream);
    expect((await call(`/v1/sessions/${session.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await received).toContain(ended(session.id, 'deleted'));
  });

  it('expires an idle session: its stream ends, and it is no longer found or listed', async () => {
    const call = serveClient(expiring.url);
    const session = (await (await call('/v1/sessions', { method: 'POST', json: {} })).json()) as LooseJson;
    const stream = await call(`/v1/sessions/${session.id}/events`);
    // Only the expiry can end this stream; the test's own timeout bounds the wait.
    expect(await readToEnd(stream)).toContain(ended(session.id, 'expired'));
    expect((await call(`/v1/sessions/${session.id}`)).status).toBe(404);
    expect(((await (await call('/v1/sessions')).json()) as LooseJson).sessions).toEqual([]);
  });
});
