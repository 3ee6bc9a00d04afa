import { readFileSync } from 'node:fs';
import type { Message } from '@compaction/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { example, type LooseJson } from '../__fixtures__/run-binary.js';
import { type RunningServer, startServer } from '../__fixtures__/start-server.js';

const history = JSON.parse(readFileSync(example, 'utf8')) as Message[];
const text = (value: string): Message => ({ role: 'user', content: [{ type: 'text', text: value }] });

let server: RunningServer;
const token = 'test-token-123';

beforeAll(async () => {
  server = await startServer(['--token', token, '--max-body', '64kb']);
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

function call(path: string, init: RequestInit & { json?: unknown } = {}) {
  const { json, ...rest } = init;
  return fetch(`${server.url}${path}`, {
    ...rest,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...rest.headers },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
}

describe('compaction serve', () => {
  it('listens on loopback and requires the bearer token', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const anonymous = await fetch(`${server.url}/v1/health`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({
      error: { code: 'unauthorized', message: 'missing or wrong bearer token' },
    });
    const wrong = await fetch(`${server.url}/v1/health`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    const health = await call('/v1/health');
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true });
  });

  it('compacts statelessly and reports what it did', async () => {
    const messages = history.slice(0, 16);
    const response = await call('/v1/compact', {
      method: 'POST',
      json: { conversation: messages, config: { strategy: 'sliding-window' } },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as LooseJson;
    expect(body.report).toMatchObject({
      compacted: true,
      strategy: ['sliding-window'],
      before: { messages: 16 },
    });
    expect(body.report.after.tokens).toBeLessThan(body.report.before.tokens);
    expect(body.conversation).toHaveLength(body.report.after.messages);
    expect(body.conversation.at(-1)).toEqual(messages.at(-1));
  });

  it('answers bad requests with clear JSON errors', async () => {
    const cases: Array<[RequestInit & { json?: unknown }, string, number, string, RegExp]> = [
      [{ method: 'POST', body: '{"messages": [' }, '/v1/compact', 400, 'invalid-json', /line 1, column 15/],
      [
        { method: 'POST', json: { conversation: [{ role: 'robot', content: [] }] } },
        '/v1/compact',
        400,
        'invalid-messages',
        /messages\[0\]\.role/,
      ],
      [{ method: 'POST', json: [1, 2] }, '/v1/compact', 400, 'invalid-request', /JSON object/],
      [
        { method: 'POST', json: { conversation: [], config: { strategy: 'nonexistent' } } },
        '/v1/compact',
        403,
        'config-not-allowed',
        /^config\.strategy: strategy "nonexistent" is not allowed here/,
      ],
      [
        { method: 'POST', json: { conversation: [], config: { budget: { window: 1 } } } },
        '/v1/compact',
        400,
        'invalid-config',
        /budget/,
      ],
      [
        { method: 'POST', json: { conversation: [], config: { budget: { trigger: 'x' } } } },
        '/v1/compact',
        400,
        'invalid-config',
        /budget\.trigger/,
      ],
      [{ method: 'GET' }, '/v1/compact', 405, 'method-not-allowed', /GET/],
      [{ method: 'GET' }, '/v2/everything', 404, 'not-found', /no route/],
      [{ method: 'GET' }, '/v1/sessions/missing', 404, 'session-not-found', /missing/],
    ];
    for (const [init, path, status, code, message] of cases) {
      const response = await call(path, init);
      expect(response.status, `${path} ${code}`).toBe(status);
      const body = (await response.json()) as LooseJson;
      expect(body.error.code).toBe(code);
      expect(body.error.message).toMatch(message);
    }
  });

  it('refuses a body over the size limit with 413', async () => {
    const response = await call('/v1/compact', { method: 'POST', json: { conversation: history } });
    expect(response.status).toBe(413);
    expect((await response.json()) as LooseJson).toMatchObject({ error: { code: 'payload-too-large' } });
    // The server still answers afterwards.
    expect((await call('/v1/health')).status).toBe(200);
  });

  it('keeps sessions that compact as messages arrive, and streams session.compacted events', async () => {
    const created = await call('/v1/sessions', {
      method: 'POST',
      json: { config: { budget: { contextWindow: 16_000 } } },
    });
    expect(created.status).toBe(201);
    const session = (await created.json()) as LooseJson;
    expect(session).toMatchObject({ messages: 0, compactions: 0, budget: { contextWindow: 16_000 } });

    const stream = await call(`/v1/sessions/${session.id}/events`);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = '';

    let compactedResponses = 0;
    for (let start = 0; start < history.length; start += 10) {
      const response = await call(`/v1/sessions/${session.id}/messages`, {
        method: 'POST',
        json: { messages: history.slice(start, start + 10) },
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as LooseJson;
      if (body.compacted) compactedResponses++;
      expect(body.tokens).toBeLessThanOrEqual(body.budget.limit);
    }
    expect(compactedResponses).toBeGreaterThan(0);
    const manual = await call(`/v1/sessions/${session.id}/compact`, {
      method: 'POST',
      json: { instructions: 'Keep file paths.' },
    });
    expect(manual.status).toBe(200);

    const compactions = ((await (await call(`/v1/sessions/${session.id}/compactions`)).json()) as LooseJson)
      .compactions;
    expect(compactions.length).toBeGreaterThanOrEqual(compactedResponses);
    while ((received.match(/event: session\.compacted/g) ?? []).length < compactions.length) {
      const { value, done } = await reader.read();
      if (done) break;
      received += value;
    }
    await reader.cancel();
    const events = [...received.matchAll(/^data: (.*)$/gm)].map((match) => JSON.parse(match[1]!));
    expect(events.map((event) => event.event.id)).toEqual(
      compactions.map((event: { id: string }) => event.id),
    );
    expect(events[0]).toMatchObject({ sessionId: session.id, event: { trigger: 'auto' } });

    expect((await call(`/v1/sessions/${session.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(`/v1/sessions/${session.id}`)).status).toBe(404);
  });

  it('serializes concurrent requests to the same session without losing messages', async () => {
    const session = (await (
      await call('/v1/sessions', { method: 'POST', json: { conversation: [text('start')] } })
    ).json()) as LooseJson;
    const count = 24;
    const responses = await Promise.all(
      Array.from({ length: count }, (_, index) =>
        call(`/v1/sessions/${session.id}/messages`, {
          method: 'POST',
          json: { messages: [text(`message ${index}`)] },
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(count).fill(200));
    const counts = (await Promise.all(responses.map((response) => response.json()))).map(
      (body) => (body as LooseJson).messages as number,
    );
    // Each append saw the one before it: the sizes are 2..count+1, each once.
    expect(counts.sort((left, right) => left - right)).toEqual(
      Array.from({ length: count }, (_, index) => index + 2),
    );
    const state = (await (await call(`/v1/sessions/${session.id}`)).json()) as LooseJson;
    const texts = state.conversation.map((message: Message) => (message.content[0] as { text: string }).text);
    expect(texts.slice(1).sort()).toEqual(
      Array.from({ length: count }, (_, index) => `message ${index}`).sort(),
    );
  });
});
