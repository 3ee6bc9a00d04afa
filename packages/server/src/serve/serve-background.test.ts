import type { Message } from '@compaction/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../__fixtures__/temporary-directory.js';
import { createInstalledStrategyRegistry } from '../config/installed-strategies.js';
import { resolveSettings } from '../config/resolve-settings.js';
import { scrapeMetrics } from '../observability/__fixtures__/scraped-metrics.js';
import { serveClient, waitFor } from './__fixtures__/serve-client.js';
import { type CompactionServer, listenCompactionServer } from './compaction-http-server.js';

// `compaction serve` with background compaction: a session between `prepareAt` and the trigger is compacted
// in the background, and its append at the trigger uses that result; the server's cap holds across sessions
// (each has a Compactor of its own); deleting a session stops its job and frees its place.

const text = (role: 'user' | 'assistant', value: string): Message => ({
  role,
  content: [{ type: 'text', text: value }],
});
/** `turns` exchanges of about 200 tokens each, then a request. */
const conversation = (turns: number, label: string): Message[] => [
  ...Array.from({ length: turns }, (_, index) => [
    text('user', `${label} step ${index}: read the next file. ${'word '.repeat(90)}`),
    text('assistant', `Read it. ${'detail '.repeat(90)}`),
  ]).flat(),
  text('user', `${label}: now finish the task.`),
];

interface SessionAnswer {
  id: string;
  tokens: number;
  compactions: number;
  compacted?: boolean;
  budget: { limit: number; trigger: number; target: number };
}

let server: CompactionServer;
let url: string;
beforeAll(async () => {
  const registry = await createInstalledStrategyRegistry();
  const settings = resolveSettings(
    registry,
    { 'context-window': '8k', strategy: 'sliding-window' },
    temporaryDirectory(),
  );
  ({ server, url } = await listenCompactionServer(
    {
      settings,
      registry,
      compactionThreads: 0,
      // The limit is 5,600 tokens: the target 3,360, the trigger 4,760; background from 3,920. One at a time.
      background: { prepareAt: 0.7, maximumConcurrent: 1 },
    },
    { port: 0 },
  ));
});
afterAll(() => server.shutdown(100));

describe('compaction serve: background compaction', () => {
  it('compacts sessions ahead of the trigger, one at a time across sessions, and stops a deleted one', async () => {
    const client = serveClient(url);
    const create = async (label: string) => {
      const answer = await client('/v1/sessions', {
        method: 'POST',
        json: { conversation: conversation(19, label) },
      });
      expect(answer.status).toBe(201);
      return (await answer.json()) as SessionAnswer;
    };
    const metric = async (name: string, labels?: Record<string, string>) =>
      (await scrapeMetrics(url)).total(name, labels);

    const first = await create('first');
    // Between where background compaction starts and the trigger: not compacted by the append itself.
    expect(first.tokens).toBeGreaterThan(first.budget.limit * 0.7);
    expect(first.tokens).toBeLessThan(first.budget.trigger);
    expect(first.compactions).toBe(0);
    await waitFor(async () => (await metric('compaction_background_started_total')) === 1, 'a job started');

    // The cap is taken by the first session's job: the second's is dropped, and it compacts in line later.
    await create('second');
    await waitFor(
      async () => (await metric('compaction_background_discarded_total', { reason: 'skipped' })) === 1,
      "the second session's job dropped at the cap",
    );

    // Deleting the first session stops its job and frees its place for a third session.
    expect((await client(`/v1/sessions/${first.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await metric('compaction_background_discarded_total', { reason: 'session-closed' })).toBe(1);
    const third = await create('third');
    await waitFor(async () => (await metric('compaction_background_started_total')) === 3, 'a third job');

    // The third session's append that crosses the trigger uses its background result.
    const appended = await client(`/v1/sessions/${third.id}/messages`, {
      method: 'POST',
      json: { messages: conversation(6, 'more').slice(0, -1).concat(conversation(0, 'third again')) },
    });
    expect(appended.status).toBe(200);
    const after = (await appended.json()) as SessionAnswer;
    expect(after.compacted).toBe(true);
    // The background result with the appended turns is under the trigger: nothing compacted again in line.
    expect(after.tokens).toBeLessThan(after.budget.trigger);
    expect(after.compactions).toBe(1);
    const metrics = await scrapeMetrics(url);
    expect(metrics.total('compaction_background_used_total')).toBe(1);
    expect(metrics.observations('compaction_background_saved_seconds')).toBe(1);
    expect(metrics.total('compaction_background_discarded_total', { reason: 'skipped' })).toBe(1);
  });
});
