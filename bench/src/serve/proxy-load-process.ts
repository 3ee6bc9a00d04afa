/**
 * The proxy load of the serve bench, in a process of its own: `clients` clients each posting the same large
 * Chat Completions conversation (over the proxy's trigger) through `compaction proxy` in a loop for `seconds`,
 * each time under a conversation name of its own, so every request is compacted on its way. Sends back the
 * requests answered, by status, and the size of the body.
 */
import { largeChatRequest } from './large-request.js';

const [url, clientsText, secondsText, bytesText] = process.argv.slice(2);
const body = Buffer.from(JSON.stringify(largeChatRequest(Number(bytesText))));
const until = performance.now() + Number(secondsText) * 1000;
const statuses: Record<string, number> = {};

async function client(index: number): Promise<void> {
  for (let request = 0; performance.now() < until; request++) {
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer bench-key',
        'x-compaction-conversation': `bench-${index}-${request}`,
      },
      body,
    });
    await response.arrayBuffer();
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  }
}

await Promise.all(Array.from({ length: Number(clientsText) }, (_, index) => client(index)));
process.send?.({ statuses, bodyBytes: body.byteLength });
process.disconnect();
