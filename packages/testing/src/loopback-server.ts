import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecordedRequest, Reply, TestServer } from './loopback-wire.js';

export type { RecordedRequest, Reply, TestServer } from './loopback-wire.js';

/** Starts a test server on 127.0.0.1 with a random port. */
export async function startTestServer(): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const queues = new Map<string, Reply[]>();
  const handlers = new Map<string, (request: RecordedRequest) => Reply>();
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const path = (incoming.url ?? '/').split('?')[0]!;
      const request: RecordedRequest = {
        method: incoming.method ?? 'GET',
        path,
        headers: incoming.headers,
        body: text === '' ? undefined : JSON.parse(text),
        rawBody: text,
        receivedAt: performance.now(),
      };
      requests.push(request);
      const reply = queues.get(path)?.shift() ??
        handlers.get(path)?.(request) ?? { status: 404, body: { error: { message: `no route ${path}` } } };
      const send = () => write(response, reply);
      if (reply.delayMs === undefined) send();
      else {
        const timer = setTimeout(send, reply.delayMs);
        response.on('close', () => clearTimeout(timer));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue(path, ...replies) {
      queues.set(path, [...(queues.get(path) ?? []), ...replies]);
    },
    handle(path, handler) {
      handlers.set(path, handler);
    },
    reset() {
      requests.length = 0;
      queues.clear();
      handlers.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function write(response: ServerResponse, reply: Reply): void {
  if (response.destroyed) return;
  if (reply.chunks !== undefined) {
    writeChunks(response, reply, reply.chunks).catch(() => response.destroy());
    return;
  }
  const body = reply.raw ?? JSON.stringify(reply.body ?? {});
  response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
  response.end(body);
}

async function writeChunks(
  response: ServerResponse,
  reply: Reply,
  chunks: AsyncIterable<string> | readonly string[],
): Promise<void> {
  response.writeHead(reply.status ?? 200, { 'content-type': 'text/event-stream', ...reply.headers });
  // Headers go out before the first piece, as a provider's stream does.
  response.flushHeaders();
  for await (const chunk of chunks) {
    if (response.destroyed) return;
    response.write(chunk);
  }
  response.end();
}

export {
  type AgentScript,
  countMessages,
  readFileOutput,
  type ScriptedAgentWire,
  type ScriptedAnswer,
  type ScriptedExchange,
  scriptAgentAnswers,
} from './scripted-agent.js';
