import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerWithToolCalls, runAgent } from '../../../server/src/proxy/__fixtures__/coding-agent.js';
import { runBinary, temporaryDirectory } from '../__fixtures__/run-binary.js';
import { type RunningServer, startServer } from '../__fixtures__/start-server.js';

// `compaction proxy` as a process: it starts, forwards, logs one line per compaction, keeps each conversation's
// compacted prefix in its SQLite store across a restart, and stops on SIGTERM.

/** Starts `compaction proxy` in `directory`. */
function startProxyProcess(args: string[], directory: string): Promise<RunningServer> {
  return startServer(args, {}, directory, 'proxy');
}

let upstream: TestServer;
beforeAll(async () => {
  upstream = await startTestServer();
});
afterAll(() => upstream.close());

describe('compaction proxy (the command)', () => {
  it('keeps a conversation’s compacted prefix in its store across a restart', async () => {
    const directory = temporaryDirectory();
    const args = ['--upstream', `anthropic=${upstream.url}`, '--context-window', '10000'];
    upstream.handle('/v1/messages', answerWithToolCalls(upstream));
    const first = await startProxyProcess(args, directory);
    const client = (url: string) => new Anthropic({ apiKey: 'client-key', baseURL: url, maxRetries: 0 });
    const { history } = await runAgent(client(first.url), 14);
    expect(first.stderr()).toMatch(/compaction proxy: conversation [0-9a-f]{8}: \d+ → \d+ tokens/);
    expect(first.stderr()).toContain('conversations in .compaction/sessions.sqlite');
    expect(await first.stop()).toBe(0);
    const before = upstream.requests.at(-1)!.body as { messages: unknown[] };

    const second = await startProxyProcess(args, directory);
    try {
      await runAgent(client(second.url), 1, { history });
      const after = upstream.requests.at(-1)!.body as { messages: unknown[] };
      // The restarted proxy sends the same compacted turns as before, then the new ones.
      expect(JSON.stringify(after.messages.slice(0, before.messages.length))).toBe(
        JSON.stringify(before.messages),
      );
      // Shorter than the client's history: the remembered compaction stood in for its first turns.
      expect(JSON.stringify(after.messages).length).toBeLessThan(JSON.stringify(history).length);
      expect(second.stderr()).not.toContain('client-key');
    } finally {
      expect(await second.stop()).toBe(0);
    }
    expect(existsSync(join(directory, '.compaction', 'sessions.sqlite'))).toBe(true);
  });

  it('refuses an upstream that is not http(s) and prints its help', async () => {
    const refused = await runBinary(['proxy', '--upstream', 'ftp://example.com']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--upstream: "ftp://example.com" must be an http or https URL');
    const help = await runBinary(['proxy', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('ANTHROPIC_BASE_URL=http://127.0.0.1:4320');
  });
});
