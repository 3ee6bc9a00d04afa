import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CompactionEvent, Message } from '@compaction/core';
import { createSqliteCompactionStore } from '@compaction/store-sqlite';
import { generateCodingHistory } from '@compaction/testing';
import { request } from './http.js';
import { startServer } from './start-server.js';
import { describeEvent, summarizeBody } from './summarize.js';

// Sessions are kept in a SQLite file, so a server started again on it serves them again.
const storePath = join(mkdtempSync(join(tmpdir(), 'compaction-example-')), 'sessions.sqlite');
const store = createSqliteCompactionStore({ path: storePath });
let server = await startServer(store);
console.log(`Serving on ${server.url} (strategy ${server.strategyNames.join(', ')})`);

/** Prints one exchange: the request, the status and the answer. */
function show(label: string, status: number, body: unknown): void {
  console.log(`\n${label}\n  ${status} ${typeof body === 'string' ? body : JSON.stringify(body)}`);
}

try {
  // A coding-agent session, sent in parts as an agent would.
  const history: Message[] = generateCodingHistory({ messages: 60, seed: 3 });
  const created = await request(`${server.url}/v1/sessions`, 'POST', { conversation: history.slice(0, 4) });
  show('POST /v1/sessions (4 messages)', created.status, summarizeBody(created.body));
  const sessionPath = `/v1/sessions/${String(created.body?.id)}`;
  let session = `${server.url}${sessionPath}`;

  // Still under the trigger: appended as is.
  const appended = await request(`${session}/messages`, 'POST', { messages: history.slice(4, 20) });
  show('POST /v1/sessions/:id/messages (16 more)', appended.status, summarizeBody(appended.body));

  // A compaction asked for now, with instructions (a summarizing strategy follows them; these do not need to).
  const compacted = await request(`${session}/compact`, 'POST', {
    instructions: 'Keep the failing test output and the files that were edited.',
  });
  show('POST /v1/sessions/:id/compact (with instructions)', compacted.status, summarizeBody(compacted.body));

  // This append crosses the trigger, so the session compacts on its own.
  const crossed = await request(`${session}/messages`, 'POST', { messages: history.slice(20) });
  show('POST /v1/sessions/:id/messages (40 more)', crossed.status, summarizeBody(crossed.body));

  // The provider, its address and its key are the operator's: a request cannot point them elsewhere.
  const redirected = await request(`${server.url}/v1/compact`, 'POST', {
    conversation: history.slice(0, 4),
    config: { provider: { name: 'anthropic', baseURL: 'http://127.0.0.1:9' } },
  });
  show('POST /v1/compact (with a provider base URL)', redirected.status, redirected.body);

  const sessions = await request(`${server.url}/v1/sessions?limit=10`, 'GET');
  const listedSessions = (sessions.body?.sessions ?? []) as unknown[];
  show('GET /v1/sessions', sessions.status, `${listedSessions.length} session`);

  // A restart: the new server restores the session, with its messages and compaction events, from the store.
  await server.close();
  server = await startServer(store);
  session = `${server.url}${sessionPath}`;
  console.log(`\nRestarted on ${server.url}: ${server.restored} session restored`);
  const restored = await request(session, 'GET');
  show('GET /v1/sessions/:id (after the restart)', restored.status, summarizeBody(restored.body));

  const listed = await request(`${session}/compactions`, 'GET');
  const compactions = (listed.body?.compactions ?? []) as CompactionEvent[];
  show('GET /v1/sessions/:id/compactions', listed.status, `${compactions.length} compactions`);
  for (const event of compactions) console.log(`    ${describeEvent(event)}`);

  const deleted = await request(session, 'DELETE');
  show('DELETE /v1/sessions/:id', deleted.status, summarizeBody(deleted.body));
} finally {
  await server.close();
  await store.close();
  // The store was this run's alone.
  rmSync(dirname(storePath), { recursive: true, force: true });
  console.log('\nServer stopped.');
}
