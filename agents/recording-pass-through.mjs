import { createServer, request as httpRequest } from 'node:http';
import { requestIdHeader } from './scripted-provider.mjs';

/**
 * A loopback pass-through in front of `target` that keeps each request body the agent sent, numbers it, and
 * forwards it with that number in a header (which the proxy passes on), so what the provider received can be
 * matched with what the agent sent. Responses, streams included, are piped back as they arrive.
 */
export async function startRecordingPassThrough(target) {
  const sent = [];
  const server = createServer((incoming, response) => {
    const chunks = [];
    incoming.on('data', (chunk) => chunks.push(chunk));
    incoming.on('end', () => {
      const raw = Buffer.concat(chunks);
      const id = String(sent.length + 1);
      const path = (incoming.url ?? '/').split('?')[0];
      let body;
      try {
        body = raw.length === 0 ? undefined : JSON.parse(raw.toString('utf8'));
      } catch {
        body = undefined;
      }
      const record = { id, method: incoming.method, path, body, status: undefined };
      sent.push(record);
      const url = new URL(incoming.url ?? '/', target);
      const headers = { ...incoming.headers, host: url.host, [requestIdHeader]: id };
      const upstream = httpRequest(url, { method: incoming.method, headers }, (answer) => {
        record.status = answer.statusCode;
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      upstream.on('error', (error) => {
        record.status = 502;
        if (!response.headersSent) response.writeHead(502, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: `pass-through: ${error.message}` } }));
      });
      upstream.end(raw);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    sent,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
