import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A Messages API request the fake server received. */
export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: {
    model: string;
    system?: unknown;
    messages: Array<{ role: string; content: unknown }>;
    max_tokens: number;
  };
}

/** An error answer, as the Messages API sends one: a status and `{type: 'error', error: {type, message}}`. */
export interface FakeErrorAnswer {
  status: number;
  type: string;
  message: string;
}

/**
 * A loopback server that answers the Anthropic Messages API (`POST /v1/messages`) the way the real one does,
 * with the answers a test gives (a text, or an error), and records every request.
 */
export async function startFakeAnthropicServer(
  answer: (request: ReceivedRequest, index: number) => string | FakeErrorAnswer,
) {
  const requests: ReceivedRequest[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      const request: ReceivedRequest = {
        path: (incoming.url ?? '').split('?')[0]!,
        headers: incoming.headers,
        body,
      };
      requests.push(request);
      if (request.path === '/v1/messages/count_tokens') {
        // A deterministic stand-in for the real count: a token per 4 characters of the conversation.
        const characters = JSON.stringify(body.messages).length + JSON.stringify(body.system ?? '').length;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ input_tokens: Math.ceil(characters / 4) }));
        return;
      }
      if (request.path !== '/v1/messages') {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: request.path } }),
        );
        return;
      }
      const text = answer(request, requests.length - 1);
      if (typeof text !== 'string') {
        response.writeHead(text.status, { 'content-type': 'application/json', 'request-id': 'req_error' });
        response.end(JSON.stringify({ type: 'error', error: { type: text.type, message: text.message } }));
        return;
      }
      const inputCharacters = JSON.stringify(body.messages).length + JSON.stringify(body.system ?? '').length;
      response.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${requests.length}` });
      response.end(
        JSON.stringify({
          id: `msg_${requests.length}`,
          type: 'message',
          role: 'assistant',
          model: body.model,
          content: [{ type: 'text', text }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: Math.ceil(inputCharacters / 4), output_tokens: Math.ceil(text.length / 4) },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
