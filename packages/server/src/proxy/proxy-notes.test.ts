import Anthropic from '@anthropic-ai/sdk';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerWithToolCalls, type MessageParam, runAgent } from './__fixtures__/coding-agent.js';
import { type RunningProxy, startProxy } from './__fixtures__/start-proxy.js';

// The proxy compacts what it remembers of the conversation plus the new turns, again and again: each compaction
// must merge with the note the previous one left, and never add text to the opening.

let upstream: TestServer;
let proxy: RunningProxy;
beforeAll(async () => {
  upstream = await startTestServer();
  // The strategy that leaves removal notes (the proxy's default leaves a summary instead).
  proxy = await startProxy([upstream.url], {
    'context-window': '10000',
    strategy: 'tool-result-truncation,sliding-window',
  });
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

// An opening of two user messages before the first model turn: context, then the task.
const opening: MessageParam[] = [
  { role: 'user', content: '<system-reminder>The repository is a TypeScript library.</system-reminder>' },
  { role: 'user', content: 'Find where compute() is defined and fix its rounding bug.' },
];

const notePattern = /^\[(\d+) earlier messages? (?:skipped|removed)\b/;

/** The removal notes of a request's messages, each with the count it states. */
function notesOf(messages: readonly MessageParam[]): number[] {
  return messages.flatMap((message) =>
    typeof message.content === 'string'
      ? []
      : message.content.flatMap((block) => {
          const count = block.type === 'text' ? notePattern.exec(block.text)?.[1] : undefined;
          return count === undefined ? [] : [Number(count)];
        }),
  );
}

const blocksOf = (message: MessageParam) =>
  typeof message.content === 'string' ? 1 : message.content.length;

describe('compaction proxy: compacting its own compacted prefix', () => {
  it('keeps the opening byte for byte and one note per gap with the true count, compaction after compaction', async () => {
    upstream.handle('/v1/messages', answerWithToolCalls(upstream));
    const client = new Anthropic({ apiKey: 'client-key', baseURL: proxy.url, maxRetries: 0 });
    const turns = 40;
    const { sent } = await runAgent(client, turns, { history: opening });
    const received = upstream.requests.map(
      (request) => (request.body as { messages: MessageParam[] }).messages,
    );
    expect(received).toHaveLength(turns);
    let compacted = 0;
    received.forEach((messages, index) => {
      expect(messages.slice(0, opening.length), `request ${index}`).toEqual(opening);
      const notes = notesOf(messages);
      expect(notes.length, `request ${index}`).toBeLessThanOrEqual(1);
      if (notes.length === 0) return;
      compacted++;
      // Every other message is one the client sent (a tool result shortened counts as itself); the note joins
      // the tool results of the turn before it, or stands as a message of its own.
      const ownMessages = messages.filter(
        (message) => notesOf([message]).length === 1 && blocksOf(message) === 1,
      );
      expect(notes[0], `request ${index}`).toBe(sent[index]!.length - (messages.length - ownMessages.length));
    });
    expect(compacted).toBeGreaterThan(10);
  });
});
