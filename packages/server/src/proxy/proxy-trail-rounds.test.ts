import Anthropic from '@anthropic-ai/sdk';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { answerWithToolCalls, type MessageParam, runAgent } from './__fixtures__/coding-agent.js';
import { startProxy } from './__fixtures__/start-proxy.js';

// The proxy's default (the artifact trail after the task) compaction after compaction, in Anthropic Messages:
// each request holds the previous compaction's summary as the wire has it, joined with the model turn after it
// and without Compaction's metadata, and the next compaction must still merge with it, so the trail names the
// files of every removed turn, not only those of the latest compaction. The Node 22 compatibility run does not
// register it: what the strategy does with a request does not depend on the Node version.

const contextWindow = 8_000;
const turns = 60;

let upstream: TestServer;
let sent: MessageParam[][];
let forwarded: Array<{ messages: MessageParam[] }>;
let lines: string[];

/** The paths of the files read by the tool calls of `messages`. */
function pathsRead(messages: readonly MessageParam[]): string[] {
  return messages.flatMap((message) =>
    typeof message.content === 'string'
      ? []
      : message.content.flatMap((block) =>
          block.type === 'tool_use' ? [(block.input as { path: string }).path] : [],
        ),
  );
}

describeOnFullRun('compaction proxy: the artifact trail across compactions (Anthropic Messages)', () => {
  beforeAll(async () => {
    upstream = await startTestServer();
    forwarded = [];
    const answer = answerWithToolCalls(upstream);
    upstream.handle('/v1/messages', (request) => {
      forwarded.push(request.body as { messages: MessageParam[] });
      return answer(request);
    });
    const proxy = await startProxy([upstream.url], { 'context-window': String(contextWindow) });
    lines = proxy.lines;
    try {
      const client = new Anthropic({ apiKey: 'client-key', baseURL: proxy.url, maxRetries: 0 });
      sent = (await runAgent(client, turns)).sent;
    } finally {
      await proxy.close();
    }
  }, 60_000);
  afterAll(() => upstream.close());

  it('names the files of every removed turn in one summary after the task, after many compactions', () => {
    const compactions = lines.filter((line) => line.includes(' tokens ('));
    expect(compactions.length).toBeGreaterThanOrEqual(3);
    const last = forwarded.at(-1)!.messages;
    const text = JSON.stringify(last);
    // `src/module-5.ts` is no part of `src/module-54.ts`: a path is found by itself.
    const missing = pathsRead(sent.at(-1)!).filter((path) => !text.includes(path));
    const folded = Number(/Oldest detail folded: (\d+) files?\b/.exec(text)?.[1] ?? 0);
    expect(missing.length).toBeLessThanOrEqual(folded);
    expect(text.match(/\[Summary of \d+ earlier messages/g)).toHaveLength(1);
    expect(last[0]).toEqual(sent.at(-1)![0]);
  });

  it('keeps the task byte for byte and at most one summary in every request', () => {
    for (const [index, body] of forwarded.entries()) {
      expect(JSON.stringify(body.messages[0])).toBe(JSON.stringify(sent[index]![0]));
      expect(
        JSON.stringify(body.messages).match(/\[Summary of \d+ earlier messages/g)?.length ?? 0,
      ).toBeLessThanOrEqual(1);
    }
  });
});
