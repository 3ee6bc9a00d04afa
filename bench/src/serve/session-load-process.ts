/**
 * The session load of the serve bench, in a process of its own: `clients` clients, each with a session of its
 * own, started from a conversation of about `startBytes` and grown as a coding agent grows it, one tool round
 * (about `roundBytes` of test log) per append, for `seconds`. The server compacts a session whenever an append takes it past its trigger, so the load is many
 * small appends and, every few of them, a compaction of a large history. Sends back the appends answered, by
 * status, and how many compacted.
 */
import { largeChatRequest, toolRound } from './large-request.js';

const [url, clientsText, secondsText, roundBytesText, startBytesText] = process.argv.slice(2);
const until = performance.now() + Number(secondsText) * 1000;
const statuses: Record<string, number> = {};
let compacted = 0;

const post = (path: string, body: unknown) =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function client(index: number): Promise<void> {
  // The large request without its closing user request: the session goes on with tool rounds.
  const { messages } = largeChatRequest(Number(startBytesText));
  const created = await post('/v1/sessions', {
    conversation: { model: 'gpt-4o', messages: messages.slice(0, -1) },
    format: 'openai-chat',
  });
  const { id } = (await created.json()) as { id: string };
  for (let round = 0; performance.now() < until; round++) {
    const response = await post(`/v1/sessions/${id}/messages`, {
      messages: toolRound(index * 1_000_000 + round, Number(roundBytesText)),
    });
    const answer = (await response.json()) as { compacted?: boolean };
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    if (answer.compacted === true) compacted++;
  }
}

await Promise.all(Array.from({ length: Number(clientsText) }, (_, index) => client(index)));
process.send?.({ statuses, compacted });
process.disconnect();
