import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicAgentRequest } from '../../../server/src/serve/__fixtures__/agent-requests.js';
import { serveClient, waitFor } from '../../../server/src/serve/__fixtures__/serve-client.js';
import { itOnFullRun } from '../__fixtures__/full-run.js';
import { type LooseJson, temporaryDirectory } from '../__fixtures__/run-binary.js';
import { type RunningServer, startServer } from '../__fixtures__/start-server.js';

// End to end through the built binary: sessions outlive the process that served them. A server is killed
// (SIGKILL: nothing is saved at exit) or stopped, and another one started on the same store serves the same
// sessions, with their format, conversation and compaction records.

const running: RunningServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
});

async function start(args: string[], directory: string) {
  const server = await startServer(args, {}, directory);
  running.push(server);
  return { server, call: serveClient(server.url) };
}

/** Kills a server at once, as a crash or `kill -9` would. */
async function kill(server: RunningServer) {
  const exited = new Promise((resolve) => server.child.once('close', resolve));
  server.child.kill('SIGKILL');
  await exited;
}

const json = async (response: Response) => (await response.json()) as LooseJson;
const [task, ...steps] = anthropicAgentRequest.messages;
const { messages: _messages, ...envelope } = anthropicAgentRequest;

// The Node 22 compatibility run (scripts/test-node-22.sh) runs the first two tests, a killed server's sessions
// served again from SQLite and the --store file: the others are the session lifecycle's rules over the same
// store, which the Node version does not change (the Node 20 run has run them).
describe('compaction serve: durable sessions', () => {
  it('keeps sessions in .compaction/ by default; a killed server’s sessions are served again by the next one', async () => {
    const directory = temporaryDirectory();
    const first = await start(['--context-window', '3000'], directory);
    expect(first.server.stderr()).toContain('sessions in .compaction/sessions.sqlite, 0 restored');
    expect(readFileSync(join(directory, '.compaction', '.gitignore'), 'utf8')).toContain('*');

    const created = await json(
      await first.call('/v1/sessions', {
        method: 'POST',
        json: { conversation: { ...envelope, messages: [task] } },
      }),
    );
    for (const step of steps) {
      const appended = await first.call(`/v1/sessions/${created.id}/messages`, {
        method: 'POST',
        json: { messages: [step] },
      });
      expect(appended.status).toBe(200);
    }
    const other = await json(
      await first.call('/v1/sessions', { method: 'POST', json: { format: 'openai-chat' } }),
    );
    const before = await json(await first.call(`/v1/sessions/${created.id}`));
    const compactions = await json(await first.call(`/v1/sessions/${created.id}/compactions`));
    // The window is small enough that the appends compacted the session on the way.
    expect(before.compactions).toBeGreaterThan(0);
    expect(compactions.total).toBe(before.compactions);
    const page = await json(await first.call('/v1/sessions?limit=1'));
    await kill(first.server);

    const second = await start(['--context-window', '3000'], directory);
    expect(second.server.stderr()).toContain('sessions in .compaction/sessions.sqlite, 2 restored');
    const after = await json(await second.call(`/v1/sessions/${created.id}`));
    const { lastActiveAt: _before, expiresAt: _expires, ...kept } = before;
    expect(after).toMatchObject(kept);
    expect(after.format).toBe('anthropic');
    expect(after.conversation).toEqual(before.conversation);
    expect(await json(await second.call(`/v1/sessions/${created.id}/compactions`))).toEqual(compactions);
    // Pages and their cursors are the same across the restart.
    expect(
      (await json(await second.call(`/v1/sessions?limit=1&cursor=${page.nextCursor}`))).sessions,
    ).toEqual([expect.objectContaining({ id: other.id, format: 'openai-chat' })]);

    // The restored session goes on: its next compaction is recorded after the earlier ones.
    const compacted = await json(
      await second.call(`/v1/sessions/${created.id}/compact`, {
        method: 'POST',
        json: { instructions: 'Keep paths.' },
      }),
    );
    const total = compacted.compacted ? before.compactions + 1 : before.compactions;
    expect((await json(await second.call(`/v1/sessions/${created.id}/compactions`))).total).toBe(total);
  });

  it('uses the file --store names, and --store memory keeps nothing across a restart', async () => {
    const directory = temporaryDirectory();
    const path = join(directory, 'agents.sqlite');
    const first = await start(['--store', path], directory);
    expect(first.server.stderr()).toContain('sessions in agents.sqlite, 0 restored');
    const session = await json(await first.call('/v1/sessions', { method: 'POST', json: {} }));
    expect(await first.server.stop()).toBe(0);
    expect(existsSync(join(directory, '.compaction'))).toBe(false);

    const second = await start(['--store', path], directory);
    expect((await second.call(`/v1/sessions/${session.id}`)).status).toBe(200);
    expect(await second.server.stop()).toBe(0);

    const memory = await start(['--store', 'memory'], directory);
    expect(memory.server.stderr()).toContain('sessions in memory only');
    const forgotten = await json(await memory.call('/v1/sessions', { method: 'POST', json: {} }));
    expect(await memory.server.stop()).toBe(0);
    const again = await start(['--store', 'memory'], directory);
    expect((await again.call(`/v1/sessions/${forgotten.id}`)).status).toBe(404);
  });

  itOnFullRun(
    'removes deleted and expired sessions from the store: a restart does not bring them back',
    async () => {
      const directory = temporaryDirectory();
      const first = await start(['--session-idle', '2s'], directory);
      const deleted = await json(await first.call('/v1/sessions', { method: 'POST', json: {} }));
      const expiring = await json(await first.call('/v1/sessions', { method: 'POST', json: {} }));
      expect((await first.call(`/v1/sessions/${deleted.id}`, { method: 'DELETE' })).status).toBe(204);
      // Listing does not mark sessions as used, so it can watch one expire.
      await waitFor(
        async () => (await json(await first.call('/v1/sessions'))).sessions.length === 0,
        'the idle session to expire',
      );
      await kill(first.server);

      const second = await start(['--session-idle', '2s'], directory);
      expect(second.server.stderr()).toContain('0 restored');
      expect((await json(await second.call('/v1/sessions'))).sessions).toEqual([]);
      for (const { id } of [deleted, expiring])
        expect((await second.call(`/v1/sessions/${id}`)).status).toBe(404);
    },
  );

  itOnFullRun(
    'leaves in the store, unserved, a session whose config the restarted server no longer allows',
    async () => {
      const directory = temporaryDirectory();
      const first = await start(
        ['--strategy', 'sliding-window', '--allow-strategy', 'sliding-window,pruning'],
        directory,
      );
      const pruned = await json(
        await first.call('/v1/sessions', { method: 'POST', json: { config: { strategy: 'pruning' } } }),
      );
      const plain = await json(await first.call('/v1/sessions', { method: 'POST', json: {} }));
      expect(await first.server.stop()).toBe(0);

      const second = await start(['--strategy', 'sliding-window'], directory);
      expect(second.server.stderr()).toContain(
        `compaction serve: session "${pruned.id}" not restored: config.strategy: strategy "pruning" is not allowed here`,
      );
      expect(second.server.stderr()).toContain('1 restored');
      expect((await second.call(`/v1/sessions/${plain.id}`)).status).toBe(200);
      expect(await second.server.stop()).toBe(0);

      // Allowed again, it is served again: it was never removed.
      const third = await start(
        ['--strategy', 'sliding-window', '--allow-strategy', 'sliding-window,pruning'],
        directory,
      );
      expect(third.server.stderr()).toContain('2 restored');
      expect((await third.call(`/v1/sessions/${pruned.id}`)).status).toBe(200);
    },
  );

  itOnFullRun('expires at start the sessions whose idle time passed while no server ran', async () => {
    const directory = temporaryDirectory();
    const first = await start(['--session-idle', '1s'], directory);
    const session = await json(await first.call('/v1/sessions', { method: 'POST', json: {} }));
    await kill(first.server);
    await new Promise((resolve) => setTimeout(resolve, 1500));

    const second = await start(['--session-idle', '1s'], directory);
    expect(second.server.stderr()).toContain('0 restored');
    expect((await second.call(`/v1/sessions/${session.id}`)).status).toBe(404);
  });
});
