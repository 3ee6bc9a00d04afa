import { generateCodingHistory } from '@compaction/testing';
import type { TestServer } from '@compaction/testing/loopback-server';
import { afterEach, describe, expect, it } from 'vitest';
import { startAnthropicApi } from '../../../server/src/serve/__fixtures__/anthropic-api.js';
import { serveClient, waitFor } from '../../../server/src/serve/__fixtures__/serve-client.js';
import type { LooseJson } from '../__fixtures__/run-binary.js';
import { type RunningServer, startServer } from '../__fixtures__/start-server.js';

// End to end through the built binary: SIGTERM while compactions wait on a slow summarizer.

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A server whose summarizer answers after `summaryMs`, with its stderr and exit code followed. */
async function slowServer(summaryMs: number, args: string[] = []) {
  const api: TestServer = await startAnthropicApi(() => summaryMs);
  closers.push(() => api.close());
  const server: RunningServer = await startServer(
    ['--provider', 'anthropic', '--base-url', api.url, '--strategy', 'summarization', ...args],
    { ANTHROPIC_API_KEY: 'sk-test' },
  );
  let stderr = '';
  server.child.stderr!.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => server.child.on('close', resolve));
  closers.push(async () => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await exited;
  });
  const summaries = () => api.requests.filter((request) => request.path === '/v1/messages').length;
  return { server, exited, stderr: () => stderr, summaries, call: serveClient(server.url) };
}

/** Reads a server-sent-events stream to its end. */
async function readToEnd(response: Response): Promise<string> {
  let text = '';
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text;
    text += value;
  }
}

describe('compaction serve: graceful shutdown', () => {
  it('on SIGTERM stops accepting, finishes the 6 requests in flight, ends event streams, and exits 0', async () => {
    // Long enough that the signal arrives while all 6 wait on the summarizer, even on a busy machine.
    const { server, exited, stderr, summaries, call } = await slowServer(6000);
    const session = (await (await call('/v1/sessions', { method: 'POST', json: {} })).json()) as LooseJson;
    const stream = await call(`/v1/sessions/${session.id}/events`);
    const streamText = readToEnd(stream);

    const requests = Array.from({ length: 6 }, (_, index) =>
      call('/v1/compact', {
        method: 'POST',
        json: { conversation: generateCodingHistory({ messages: 24, seed: index + 1 }) },
      }),
    );
    await waitFor(() => summaries() === 6, 'all 6 compactions to reach the summarizer');
    server.child.kill('SIGTERM');
    await waitFor(() => stderr().includes('stopping'), 'the server to start stopping');
    expect(stderr()).toContain('SIGTERM, stopping: finishing 6 requests in flight (up to 30000 ms)');

    // No new connection is accepted while the 6 finish.
    await expect(fetch(`${server.url}/v1/health`)).rejects.toThrow();

    const answers = await Promise.all(requests);
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    for (const answer of answers) {
      const body = (await answer.json()) as LooseJson;
      expect(body.report).toMatchObject({
        compacted: true,
        strategy: ['summarization'],
        usedFallback: false,
      });
    }
    expect(await streamText).toContain(
      `event: session.ended\ndata: ${JSON.stringify({ sessionId: session.id, reason: 'shutdown' })}\n\n`,
    );
    expect(await exited).toBe(0);
    expect(stderr()).toContain('compaction serve: stopped\n');
  });

  it('cuts off what is still running at the shutdown timeout and exits 1', async () => {
    const { server, exited, stderr, summaries, call } = await slowServer(60_000, [
      '--shutdown-timeout',
      '300ms',
    ]);
    const request = call('/v1/compact', {
      method: 'POST',
      json: { conversation: generateCodingHistory({ messages: 24, seed: 9 }) },
    }).catch((error: unknown) => error);
    await waitFor(() => summaries() === 1, 'the compaction to reach the summarizer');
    server.child.kill('SIGTERM');
    expect(await exited).toBe(1);
    expect(stderr()).toContain('compaction serve: stopped; 1 requests were cut off at the shutdown timeout');
    expect(await request).toBeInstanceOf(Error);
  });
});
