/**
 * The upstream of the proxy bench, in a process of its own (so every route crosses the same number of
 * processes): reads each request body whole and answers at once with a short Anthropic message.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const answer = JSON.stringify({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-5-5',
  content: [{ type: 'text', text: 'Done.' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 2 },
});

const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(answer);
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
process.on('message', () => {
  server.closeAllConnections();
  server.close(() => process.disconnect());
});
