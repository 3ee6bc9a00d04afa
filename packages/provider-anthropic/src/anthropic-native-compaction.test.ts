import Anthropic from '@anthropic-ai/sdk';
import { createNative } from '@compaction/strategy-native';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { anthropicMessagesViolations, compactedRequestViolations } from '@compaction/testing';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { anthropicNativeCompaction, createAnthropicConversation } from './index.js';

let server: TestServer;
let client: Anthropic;

beforeEach(async () => {
  server = await startTestServer();
  client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
});
afterEach(() => server.close());

const model = 'claude-sonnet-4-6';
/** The block the loopback server returns for a compaction request, as the API does: signed, sent back verbatim. */
const compactionBlock = {
  type: 'compaction',
  content: 'Summary: the user is refactoring module a.ts; three files were read.',
  encrypted_content: 'opaque-state-1',
  signature: 'signature-1',
};

type Body = { messages: Anthropic.Beta.BetaMessageParam[]; compaction?: unknown; system?: unknown };

/** Answers compaction requests with the block alone (stop_reason `compaction`) and other requests with text. */
function speakCompaction() {
  server.handle('/v1/messages', (request) => {
    const body = request.body as Body;
    const content =
      body.compaction === undefined
        ? [{ type: 'text', text: `Answer ${server.requests.length}.` }]
        : [compactionBlock];
    return {
      status: 200,
      body: {
        id: `msg_${server.requests.length}`,
        type: 'message',
        role: 'assistant',
        model,
        content,
        stop_reason: body.compaction === undefined ? 'end_turn' : 'compaction',
        stop_sequence: null,
        // Roughly what the API would count, so the compactor's counter anchors on something near the truth.
        usage: { input_tokens: Math.ceil(JSON.stringify(body.messages).length / 4), output_tokens: 20 },
      },
    };
  });
}

/** Where in the history the newest user request of a sent body stands. */
function newestIndex(history: readonly Anthropic.MessageParam[], sent: Body): number {
  const newest = JSON.stringify(sent.messages.at(-1));
  return history.findLastIndex(
    (message) =>
      message.role === 'user' &&
      typeof message.content === 'string' &&
      newest.includes(JSON.stringify(message.content).slice(1, -1)),
  );
}

/** A user turn of a few hundred tokens that no estimator shortcut counts as a repeat. */
const longText = (index: number) =>
  `Step ${index}:\n${Array.from({ length: 60 }, (_, line) => `line ${line} of file ${index}: value ${(line * 7919 + index * 104729) % 100003}`).join('\n')}`;

describe('the native strategy in an Anthropic conversation, over the real SDK', () => {
  it('compacts the older span on the server and sends the block first, unchanged, in a request the API accepts', async () => {
    speakCompaction();
    const conversation = createAnthropicConversation({
      client,
      system: 'You are a coding agent.',
      request: { model, max_tokens: 512 },
      compaction: {
        strategy: createNative({
          nativeCompaction: anthropicNativeCompaction({ client, model }),
          fallback: createToolResultTruncation(),
        }),
        budget: { contextWindow: 4_000, reservedOutputTokens: 512, trigger: 0.6, target: 0.3 },
      },
    });
    for (let index = 1; index <= 5; index++) await conversation.send(longText(index));
    const compactionRequests = server.requests.filter(
      (request) => (request.body as Body).compaction !== undefined,
    );
    expect(compactionRequests.length).toBeGreaterThan(0);
    const [compactionRequest] = compactionRequests;
    expect(compactionRequest!.headers['anthropic-beta']).toBe('compact-2026-09-04');
    expect(compactionRequest!.body).toMatchObject({
      model,
      compaction: { type: 'summarize' },
      system: 'You are a coding agent.',
    });
    expect(anthropicMessagesViolations(compactionRequest!.body)).toEqual([]);

    const next = server.requests[server.requests.indexOf(compactionRequest!) + 1]!;
    const sent = next.body as Body;
    expect(sent.messages[0]!.role).toBe('user');
    expect((sent.messages[0]!.content as unknown[])[0]).toEqual(compactionBlock);
    expect(anthropicMessagesViolations(sent)).toEqual([]);
    // Against the request the full history would have made, the compacted one keeps every rule.
    const full = {
      model,
      max_tokens: 512,
      system: 'You are a coding agent.',
      messages: conversation.history.slice(0, newestIndex(conversation.history, sent) + 1),
    };
    expect(compactedRequestViolations('anthropic', full, sent)).toEqual([]);
    expect(conversation.compactions.at(-1)).toMatchObject({ strategy: 'native' });
  });

  it('falls back to the local strategy for a model without native compaction, with no compaction request', async () => {
    speakCompaction();
    const oldModel = 'claude-3-5-haiku-latest';
    const conversation = createAnthropicConversation({
      client,
      request: { model: oldModel, max_tokens: 512 },
      compaction: {
        strategy: createNative({
          nativeCompaction: anthropicNativeCompaction({ client, model: oldModel }),
          fallback: createToolResultTruncation(),
        }),
        budget: { contextWindow: 4_000, reservedOutputTokens: 512, trigger: 0.6, target: 0.3 },
      },
    });
    for (let index = 1; index <= 5; index++) await conversation.send(longText(index));
    expect(server.requests.every((request) => (request.body as Body).compaction === undefined)).toBe(true);
  });
});
