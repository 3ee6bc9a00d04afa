/**
 * The plain Node pass-through proxy of the proxy bench, in a process of its own: every request is sent to the
 * upstream given as the first argument with its method, headers and body, and the answer piped back. What any
 * proxy costs on loopback, to set `compaction proxy` beside.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

const upstream = new URL(process.argv[2]!);
const server = createServer((incoming, response) => {
  const { host: _host, ...headers } = incoming.headers;
  const outgoing = request(
    { host: upstream.hostname, port: upstream.port, path: incoming.url, method: incoming.method, headers },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    },
  );
  outgoing.on('error', () => response.destroy());
  incoming.pipe(outgoing);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
process.on('message', () => {
  server.closeAllConnections();
  server.close(() => process.disconnect());
});
