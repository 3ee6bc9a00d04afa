/**
 * The load of the serve bench, in a process of its own so that it does not slow the health checks: `clients`
 * clients each posting the same large `/v1/compact` body in a loop for `seconds`. Sends back how many were
 * answered, by status.
 */
import { largeCompactBody } from './large-request.js';

const [url, clientsText, secondsText, bytesText] = process.argv.slice(2);
const body = Buffer.from(largeCompactBody(Number(bytesText)));
const until = performance.now() + Number(secondsText) * 1000;
const statuses: Record<string, number> = {};

async function client(): Promise<void> {
  while (performance.now() < until) {
    const response = await fetch(`${url}/v1/compact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    await response.arrayBuffer();
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  }
}

await Promise.all(Array.from({ length: Number(clientsText) }, client));
// No clients: the bench measures the server without load for the same time.
if (Number(clientsText) === 0) await new Promise((resolve) => setTimeout(resolve, until - performance.now()));
process.send?.({ statuses, bodyBytes: body.byteLength });
process.disconnect();
