import { generateCodingHistory } from '@compaction/testing';
import type { TestServer } from '@compaction/testing/loopback-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicApi } from '../../../server/src/serve/__fixtures__/anthropic-api.js';
import {
  rawExchange,
  serveClient,
  statusOf,
  waitFor,
} from '../../../server/src/serve/__fixtures__/serve-client.js';
import type { LooseJson } from '../__fixtures__/run-binary.js';
import { type RunningServer, startServer } from '../__fixtures__/start-server.js';

// End to end through the built binary: slow clients are cut off by the timeouts, oversize bodies as soon
// as they pass the limit, and compactions beyond the cap wait in a bounded queue or get 503.

const token = 'limits-token';
const headersTimeoutMs = 1000;
const requestTimeoutMs = 3000;
/** The first summary is this slow; the others answer at once. */
const slowSummaryMs = 8000;
let api: TestServer;
let server: RunningServer;

beforeAll(async () => {
  api = await startAnthropicApi((index) => (index === 0 ? slowSummaryMs : 0));
  server = await startServer(
    [
      ...['--provider', 'anthropic', '--base-url', api.url, '--strategy', 'summarization'],
      ...['--token', token, '--max-body', '64kb', '--max-concurrent', '1', '--max-queue', '1'],
      ...['--headers-timeout', `${headersTimeoutMs}ms`, '--request-timeout', `${requestTimeoutMs}ms`],
    ],
    { ANTHROPIC_API_KEY: 'sk-test' },
  );
});
afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  await api?.close();
});

const requestHead = (headers: string) =>
  `POST /v1/compact HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n` +
  `Content-Type: application/json\r\n${headers}\r\n`;

/** Writes `data` every `everyMs` until the server closes the connection. */
async function trickle(
  write: (data: string) => boolean,
  closed: () => boolean,
  data: string,
  everyMs: number,
) {
  while (!closed()) {
    write(data);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

describe('compaction serve: timeouts and limits', () => {
  it('answers 408 and closes the connection when the headers arrive too slowly', async () => {
    const exchange = await rawExchange(server.url, async (write, closed) => {
      write(`POST /v1/compact HTTP/1.1\r\nHost: localhost\r\n`);
      let line = 0;
      while (!closed()) {
        write(`X-Slow-${line++}: still coming\r\n`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });
    expect(statusOf(exchange.received)).toBe(408);
    // Timeouts never fire early; how late they fire depends on the machine, so only the lower bound is checked.
    expect(exchange.closedAfterMs).toBeGreaterThanOrEqual(headersTimeoutMs - 50);
  });

  it('answers 408 and closes the connection when the body arrives too slowly', async () => {
    const exchange = await rawExchange(server.url, async (write, closed) => {
      write(requestHead('Content-Length: 50000\r\n'));
      await trickle(write, closed, ' ', 100);
    });
    expect(statusOf(exchange.received)).toBe(408);
    expect(exchange.closedAfterMs).toBeGreaterThanOrEqual(requestTimeoutMs - 50);
  });

  it('cuts a chunked body off with 413 once it passes the limit, without waiting for its end', async () => {
    const chunk = 'x'.repeat(16 * 1024);
    const exchange = await rawExchange(server.url, (write) => {
      write(requestHead('Transfer-Encoding: chunked\r\n'));
      // 80 kB against a 64 kB limit, and the body never ends: only a cut-off can answer it.
      for (let index = 0; index < 5; index++) write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    });
    expect(statusOf(exchange.received)).toBe(413);
    expect(exchange.received).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(exchange.received.slice(exchange.received.indexOf('\r\n\r\n') + 4))).toEqual({
      error: {
        code: 'payload-too-large',
        message: 'the request body is larger than the limit of 65536 bytes',
      },
    });
  });

  it('refuses a declared body over the limit before reading any of it', async () => {
    const exchange = await rawExchange(server.url, (write) => {
      write(requestHead('Content-Length: 1000000000\r\n'));
    });
    expect(statusOf(exchange.received)).toBe(413);
    expect(exchange.received).toMatch(/\r\nconnection: close\r\n/i);
  });

  it('closes the connection after refusing an unread body, instead of reading it to its end', async () => {
    const exchange = await rawExchange(server.url, (write) => {
      write(
        'POST /v1/compact HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer wrong\r\n' +
          'Content-Length: 60000\r\n\r\n{"messages": [',
      );
    });
    expect(statusOf(exchange.received)).toBe(401);
    expect(exchange.received).toMatch(/\r\nconnection: close\r\n/i);
  });

  it('queues compactions past the cap, answers 503 with Retry-After past the queue, and lets slow ones finish', async () => {
    const call = serveClient(server.url, token);
    const health = async () => ((await (await call('/v1/health')).json()) as LooseJson).compactions as number;
    const messages = generateCodingHistory({ messages: 24, seed: 4 });
    const compact = () => call('/v1/compact', { method: 'POST', json: { conversation: messages } });
    const summaries = () => api.requests.filter((request) => request.path === '/v1/messages').length;

    const running = compact();
    await waitFor(() => summaries() === 1, 'the first summary request');
    const queued = compact();
    await waitFor(async () => (await health()) === 2, 'the second compaction to wait in the queue');
    const refused = await compact();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(((await refused.json()) as LooseJson).error).toEqual({
      code: 'server-busy',
      message: '1 compactions are running and 1 are waiting; retry after 1 s',
    });
    // The slow summary takes longer than the request timeout: that timeout covers receiving, not compacting.
    const answers = await Promise.all([running, queued]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(summaries()).toBe(2);
    expect(await health()).toBe(0);
  });
});
