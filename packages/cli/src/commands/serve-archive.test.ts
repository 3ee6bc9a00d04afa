import { join } from 'node:path';
import { type ArchivedItem, InMemoryCompactionStore } from '@compaction/core';
import { createRecallTool } from '@compaction/recall';
import { createSqliteCompactionStore } from '@compaction/store-sqlite';
import { recallHandlesIn } from '@compaction/strategy-kit';
import { sampleCompactionRecord } from '@compaction/testing/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicAgentRequest } from '../../../server/src/serve/__fixtures__/agent-requests.js';
import { serveClient } from '../../../server/src/serve/__fixtures__/serve-client.js';
import { stringsIn } from '../__fixtures__/recall-check.js';
import { type LooseJson, temporaryDirectory } from '../__fixtures__/run-binary.js';
import { type RunningServer, startServer } from '../__fixtures__/start-server.js';

// End to end through the built binary: GET /v1/sessions/{id}/archive/{handle} answers what the session's
// compactions archived in the server's store, whole and exact, or a part as the recall tool answers it.

const items: ArchivedItem[] = [
  { handle: 'k3j9x0a2m1q', label: 'bash output', text: 'naïve 日本語 😀\r\nsecond line\nno final newline' },
  {
    handle: 'lines_7',
    label: 'turns 3-7',
    text: Array.from(
      { length: 3000 },
      (_, index) => `line ${index + 1} ${index % 7 === 0 ? 'ERROR' : 'ok'}`,
    ).join('\n'),
  },
];

let server: RunningServer;
let sessionId: string;
let otherId: string;
const token = 'archive-test-token';
const call = () => serveClient(server.url, token);
const json = async (response: Response) => (await response.json()) as LooseJson;

beforeAll(async () => {
  const directory = temporaryDirectory();
  server = await startServer(['--token', token, '--context-window', '3000'], {}, directory);
  sessionId = (await json(await call()('/v1/sessions', { method: 'POST', json: {} }))).id;
  otherId = (await json(await call()('/v1/sessions', { method: 'POST', json: {} }))).id;
  // Written by another process into the server's store, as a compaction of the session would write it.
  const store = createSqliteCompactionStore({ path: join(directory, '.compaction', 'sessions.sqlite') });
  await store.append({ ...sampleCompactionRecord(sessionId, 1), archived: items });
  await store.close();
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

/** What the recall tool answers for `request` on the item alone: what a part must be. */
async function toolAnswer(item: ArchivedItem, request: Record<string, unknown>) {
  const store = new InMemoryCompactionStore();
  await store.append({ ...sampleCompactionRecord('s', 1), archived: [item] });
  return createRecallTool({ store, sessionId: 's' }).execute({ handle: item.handle, ...request });
}

describe('compaction serve: GET /v1/sessions/{id}/archive/{handle}', () => {
  it('answers the item whole, its text exactly as archived', async () => {
    for (const item of items) {
      const response = await call()(`/v1/sessions/${sessionId}/archive/${item.handle}`);
      expect(response.status).toBe(200);
      expect(await json(response)).toEqual(item);
    }
  });

  it('answers a line range or a pattern as the recall tool does', async () => {
    const item = items[1]!;
    const queries: Array<[string, Record<string, unknown>]> = [
      ['fromLine=2&toLine=4', { fromLine: 2, toLine: 4 }],
      ['pattern=error', { pattern: 'error' }],
      ['fromLine=10&pattern=ERROR', { fromLine: 10, pattern: 'ERROR' }],
      ['fromLine=1', { fromLine: 1 }],
    ];
    for (const [query, request] of queries) {
      const response = await call()(`/v1/sessions/${sessionId}/archive/${item.handle}?${query}`);
      expect(response.status, query).toBe(200);
      const expected = await toolAnswer(item, request);
      expect(await json(response), query).toEqual({
        handle: item.handle,
        label: item.label,
        text: expected.text,
        truncated: expected.truncated,
      });
    }
    // The whole of a long text asked for by lines is bounded as a model gets it, and says so.
    const bounded = await json(await call()(`/v1/sessions/${sessionId}/archive/${item.handle}?fromLine=1`));
    expect(bounded.truncated).toBe(true);
  });

  it('refuses unusable parameters with 400, and finds no handle of another session or unknown', async () => {
    const path = `/v1/sessions/${sessionId}/archive/lines_7`;
    for (const query of ['fromLine=0', 'toLine=x', 'fromLine=5&toLine=2', 'pattern=']) {
      const response = await call()(`${path}?${query}`);
      expect(response.status, query).toBe(400);
      expect((await json(response)).error.code, query).toBe('invalid-request');
    }
    const other = await call()(`/v1/sessions/${otherId}/archive/lines_7`);
    expect(other.status).toBe(404);
    expect(await json(other)).toEqual({
      error: { code: 'archive-not-found', message: `no archived text "lines_7" in session "${otherId}"` },
    });
    const unknown = await call()('/v1/sessions/nobody/archive/lines_7');
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error.code).toBe('session-not-found');
  });

  it('needs the bearer token, as every session route', async () => {
    const response = await serveClient(server.url)(`/v1/sessions/${sessionId}/archive/lines_7`);
    expect(response.status).toBe(401);
    expect((await json(response)).error.code).toBe('unauthorized');
  });

  it('archives what its own compactions remove: every handle the conversation names is answered', async () => {
    const [task, ...steps] = anthropicAgentRequest.messages;
    const { messages: _messages, ...envelope } = anthropicAgentRequest;
    const created = await json(
      await call()('/v1/sessions', {
        method: 'POST',
        json: { conversation: { ...envelope, messages: [task] } },
      }),
    );
    for (const step of steps) {
      await call()(`/v1/sessions/${created.id}/messages`, { method: 'POST', json: { messages: [step] } });
    }
    const session = await json(await call()(`/v1/sessions/${created.id}`));
    expect(session.compactions).toBeGreaterThan(0);
    for (const handle of [...new Set(stringsIn(session.conversation).flatMap(recallHandlesIn))]) {
      const response = await call()(`/v1/sessions/${created.id}/archive/${handle}`);
      expect(response.status, handle).toBe(200);
      expect((await json(response)).handle).toBe(handle);
    }
  });
});

describe('compaction serve --store memory: no archive', () => {
  it('answers 404 archive-not-found, saying why', async () => {
    const memory = await startServer(['--store', 'memory']);
    const id = (await json(await serveClient(memory.url)('/v1/sessions', { method: 'POST', json: {} }))).id;
    const response = await serveClient(memory.url)(`/v1/sessions/${id}/archive/k3j9x0a2m1q`);
    expect(response.status).toBe(404);
    expect((await json(response)).error).toEqual({
      code: 'archive-not-found',
      message: 'no archived text "k3j9x0a2m1q": this server keeps no archive (it runs with --store memory)',
    });
    expect(await memory.stop()).toBe(0);
  });
});
