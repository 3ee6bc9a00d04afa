import Anthropic from '@anthropic-ai/sdk';
import { createNative } from '@compaction/strategy-native';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { anthropicMessagesViolations, compactedRequestViolations } from '@compaction/testing';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type SentBody as Body,
  compactionBlock,
  longText,
  newestIndex,
  speakCompaction,
} from './__fixtures__/anthropic-compaction-server.js';
import { anthropicNativeCompaction, createAnthropicConversation } from './index.js';

let server: TestServer;
let client: Anthropic;

beforeEach(async () => {
  server = await startTestServer();
  client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
});
afterEach(() => server.close());

const model = 'claude-sonnet-4-6';
describe('the native strategy in an Anthropic conversation, over the real SDK', () => {
  it('compacts the older span on the server and sends the block first, unchanged, in a request the API accepts', async () => {
    speakCompaction(server, model);
    const conversation = createAnthropicConversation({
      client,
      system: 'You are a coding agent.',
      request: { model, max_tokens: 512 },
      compaction: {
        strategy: createNative({
          nativeCompaction: anthropicNativeCompaction({ client, model }),
          fallback: createToolResultTruncation(),
        }),
        budget: { contextWindow: 4_000, reservedOutputTokens: 512, trigger: 0.6, target: 0.55 },
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
    speakCompaction(server, model);
    const oldModel = 'claude-3-5-haiku-latest';
    const conversation = createAnthropicConversation({
      client,
      request: { model: oldModel, max_tokens: 512 },
      compaction: {
        strategy: createNative({
          nativeCompaction: anthropicNativeCompaction({ client, model: oldModel }),
          fallback: createToolResultTruncation(),
        }),
        budget: { contextWindow: 4_000, reservedOutputTokens: 512, trigger: 0.6, target: 0.55 },
      },
    });
    for (let index = 1; index <= 5; index++) await conversation.send(longText(index));
    expect(server.requests.every((request) => (request.body as Body).compaction === undefined)).toBe(true);
  });
});
