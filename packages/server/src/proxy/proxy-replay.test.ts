import Anthropic from '@anthropic-ai/sdk';
import { toAnthropicRequest } from '@compaction/provider-anthropic';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import {
  loadTranscripts,
  missingTranscriptsMessage,
  transcriptsDirectory,
} from '@compaction/testing/transcripts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CacheBilling } from './__fixtures__/cache-billing.js';
import { type RunningProxy, startProxy } from './__fixtures__/start-proxy.js';

// A real coding agent's run (the longest mini-swe-agent trajectory of the shared transcripts), replayed turn by
// turn through the proxy with the Anthropic SDK, against an upstream that bills prompt-cache reads and writes
// as Anthropic does; then the same run sent directly. Prints both bills and the proxy's added latency.

const directory = transcriptsDirectory();
const transcript = (
  directory === undefined ? [] : loadTranscripts({ directory, sources: ['mini-swe-agent'] })
)
  .sort((first, second) => second.messages.length - first.messages.length)
  .at(0);

/** The context window the replay runs under: the run grows well past it. */
const contextWindow = 32_000;

const tools: Anthropic.Tool[] = [
  {
    name: 'bash',
    description: 'Runs a bash command in the repository.',
    input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  },
];

interface Replay {
  billing: CacheBilling;
  /** Input tokens of the largest request the upstream received. */
  largestRequest: number;
}

// The Node 22 compatibility run (scripts/test-node-22.sh) does not register this replay of a whole coding run
// (about half a minute): the Node 20 run has made it, and the proxy's compaction still runs on Node 22 in
// proxy-compaction.test.ts.
const describeOnFullRun: (name: string, body: () => void) => void =
  process.env.COMPACTION_COMPATIBILITY_RUN === undefined
    ? describe.skipIf(transcript === undefined)
    : () => {};

describeOnFullRun(
  `compaction proxy: replay of a real coding run (${transcript?.name ?? directory ?? missingTranscriptsMessage})`,
  () => {
    let upstream: TestServer;
    let proxy: RunningProxy;
    beforeAll(async () => {
      upstream = await startTestServer();
      proxy = await startProxy([upstream.url], { 'context-window': String(contextWindow) });
    });
    afterAll(async () => {
      await proxy.close();
      await upstream.close();
    });

    const request = toAnthropicRequest(transcript?.messages ?? []) as {
      system?: Anthropic.MessageCreateParams['system'];
      messages: Anthropic.MessageParam[];
    };
    const turns = request.messages.flatMap((message, index) => (message.role === 'assistant' ? [index] : []));

    /** Sends the run turn by turn to `baseURL`; the upstream answers each turn with the agent's recorded one. */
    async function replay(baseURL: string): Promise<Replay> {
      upstream.reset();
      const billing = new CacheBilling();
      upstream.handle('/v1/messages', (received) => {
        const body = received.body as { system?: unknown; tools?: unknown; messages: unknown[] };
        const billed = billing.bill(body);
        const next = request.messages[turns[billing.requests.length - 1]!]!;
        return {
          body: {
            id: `msg_${billing.requests.length}`,
            type: 'message',
            role: 'assistant',
            model: 'claude-sonnet-5-5',
            content: next.content,
            stop_reason: 'tool_use',
            stop_sequence: null,
            usage: {
              input_tokens: 0,
              cache_read_input_tokens: billed.cacheReadTokens,
              cache_creation_input_tokens: billed.cacheWriteTokens,
              output_tokens: 100,
            },
          },
        };
      });
      const client = new Anthropic({ apiKey: 'replay-key', baseURL, maxRetries: 0 });
      for (const turn of turns) {
        const answer = await client.messages.create({
          model: 'claude-sonnet-5-5',
          max_tokens: 4096,
          ...(request.system === undefined ? {} : { system: request.system }),
          tools,
          messages: request.messages.slice(0, turn),
        });
        // The client keeps its full history, as an agent does: the recorded turn is what it appends.
        expect(answer.content).toEqual(request.messages[turn]!.content);
      }
      const largestRequest = Math.max(...billing.requests.map((billed) => billed.inputTokens));
      return { billing, largestRequest };
    }

    it('bills fewer tokens through the proxy once the run outgrows the window, and compacts per trigger', async () => {
      const direct = await replay(upstream.url);
      const proxied = await replay(proxy.url);
      expect(direct.billing.requests).toHaveLength(turns.length);
      expect(proxied.billing.requests).toHaveLength(turns.length);
      // Between compactions every request reads the earlier one's prefix from the cache: the only requests
      // that write more than their new turns are those the proxy compacted.
      const rewritten = proxied.billing.requests.filter(
        (billed, index) =>
          index > 0 && billed.cacheReadTokens < proxied.billing.requests[index - 1]!.inputTokens,
      ).length;
      expect(rewritten).toBe(proxy.server.status().compactions);
      expect(rewritten).toBeGreaterThan(0);
      expect(direct.largestRequest).toBeGreaterThan(contextWindow);
      expect(proxied.largestRequest).toBeLessThan(contextWindow);
      const ratio = proxied.billing.total() / direct.billing.total();
      expect(ratio).toBeLessThan(1);
      process.stdout.write(
        `replay ${transcript?.name}: ${turns.length} turns, ${rewritten} compactions; billed input ` +
          `(base-price tokens, cache reads 0.1×, writes 1.25×): direct ${Math.round(direct.billing.total())}, ` +
          `through the proxy ${Math.round(proxied.billing.total())}, ratio ${ratio.toFixed(3)}; largest request ` +
          `${direct.largestRequest} → ${proxied.largestRequest} tokens\n`,
      );
    });
  },
);
