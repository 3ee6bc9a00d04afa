import type { Message } from '@compaction/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../__fixtures__/temporary-directory.js';
import { createInstalledStrategyRegistry } from '../config/installed-strategies.js';
import { resolveSettings } from '../config/resolve-settings.js';
import { serveClient } from './__fixtures__/serve-client.js';
import { type CompactionServer, listenCompactionServer } from './compaction-http-server.js';

// `POST /v1/sessions/{id}/compact` with `force: true`: a manual compaction that runs even when the session is
// under its target, where one without it is skipped.

const text = (role: 'user' | 'assistant', value: string): Message => ({
  role,
  content: [{ type: 'text', text: value }],
});
const conversation: Message[] = [
  ...Array.from({ length: 8 }, (_, index) => [
    text('user', `Step ${index}: read the next file. ${'word '.repeat(60)}`),
    text('assistant', `Read it. ${'detail '.repeat(60)}`),
  ]).flat(),
  text('user', 'Now finish the task.'),
];

interface SessionChange {
  id: string;
  tokens: number;
  compacted: boolean;
  skipped?: string;
  event?: { trigger: string; instructions?: string; tokensBefore: number; tokensAfter: number };
  budget: { target: number };
}

let server: CompactionServer;
let url: string;
beforeAll(async () => {
  const registry = await createInstalledStrategyRegistry();
  const settings = resolveSettings(
    registry,
    { 'context-window': '200k', strategy: 'sliding-window' },
    temporaryDirectory(),
  );
  ({ server, url } = await listenCompactionServer({ settings, registry, compactionThreads: 0 }, { port: 0 }));
});
afterAll(() => server.shutdown(100));

describe('compaction serve: forced compaction', () => {
  it('compacts a session under its target with force, and skips it without', async () => {
    const client = serveClient(url);
    const created = (await (
      await client('/v1/sessions', { method: 'POST', json: { conversation } })
    ).json()) as SessionChange;
    expect(created.tokens).toBeLessThan(created.budget.target);
    const compact = (json: unknown) => client(`/v1/sessions/${created.id}/compact`, { method: 'POST', json });

    const plain = (await (await compact({})).json()) as SessionChange;
    expect(plain).toMatchObject({ compacted: false, skipped: 'under-target' });

    const answer = await compact({ force: true, instructions: 'Keep the step numbers.' });
    expect(answer.status).toBe(200);
    const forced = (await answer.json()) as SessionChange;
    expect(forced.compacted).toBe(true);
    expect(forced.event).toMatchObject({ trigger: 'manual', instructions: 'Keep the step numbers.' });
    expect(forced.tokens).toBeLessThan(created.tokens);

    const refused = await compact({ force: 'yes' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { message: 'force must be true or false' } });
  });
});
