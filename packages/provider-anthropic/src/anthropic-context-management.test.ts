import Anthropic from '@anthropic-ai/sdk';
import { type CompactionStrategy, InvalidOptionsError } from '@compaction/core';
import { anthropicMessagesViolations } from '@compaction/testing';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AnthropicContextEdit, contextManagementBetas, createAnthropicConversation } from './index.js';

/** Local compaction never fires at these sizes; the strategy is only there because the compactor needs one. */
const keepEverything: CompactionStrategy = {
  specificationVersion: 'v1',
  name: 'keep-everything',
  compact: async ({ messages }) => ({ messages: [...messages] }),
};

let server: TestServer;
let client: Anthropic;

beforeEach(async () => {
  server = await startTestServer();
  client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
});
afterEach(() => server.close());

const edits: AnthropicContextEdit[] = [
  {
    type: 'clear_tool_uses_20250919',
    trigger: { type: 'input_tokens', value: 30_000 },
    keep: { type: 'tool_uses', value: 3 },
    clear_at_least: { type: 'input_tokens', value: 5_000 },
  },
  { type: 'compact_20260112', trigger: { type: 'input_tokens', value: 150_000 } },
];

/** A compaction block as the API returns it: to be sent back byte for byte. */
const compactionBlock = {
  type: 'compaction',
  content: 'Summary: the user asked for a refactoring plan; modules a.ts and b.ts were read.',
  encrypted_content: 'opaque-state-1',
  signature: 'signature-1',
};

function answer(content: unknown[]) {
  return {
    status: 200,
    body: {
      id: `msg_${server.requests.length}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-5-5',
      content,
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 1200, output_tokens: 30 },
    },
  };
}

describe('Anthropic context management in a conversation, over the real SDK', () => {
  it('sends the edits with their beta flags, and sends a compaction block back as it came', async () => {
    server.handle('/v1/messages', () =>
      server.requests.length === 1
        ? answer([compactionBlock, { type: 'text', text: 'Here is the plan.' }])
        : answer([{ type: 'text', text: 'Done.' }]),
    );
    const conversation = createAnthropicConversation({
      client,
      request: { model: 'claude-sonnet-5-5', max_tokens: 1024 },
      compaction: { strategy: keepEverything, budget: { contextWindow: 200_000 } },
      contextManagement: { edits },
    });
    await conversation.send('Plan the refactoring.');
    await conversation.send('Go on.');
    const [first, second] = server.requests;
    for (const request of [first!, second!]) {
      expect(request.headers['anthropic-beta']).toBe('context-management-2025-06-27,compact-2026-01-12');
      expect(request.body).toMatchObject({ context_management: { edits } });
      expect(request.body).not.toHaveProperty('betas');
    }
    // The API drops what precedes the compaction block and refuses a block that is not the first one, so the
    // conversation is sent from the block on; the full history keeps everything.
    const sent = (second!.body as { messages: Anthropic.Beta.BetaMessageParam[] }).messages;
    expect(sent).toEqual([
      { role: 'assistant', content: [compactionBlock, { type: 'text', text: 'Here is the plan.' }] },
      { role: 'user', content: 'Go on.' },
    ]);
    expect(anthropicMessagesViolations(second!.body)).toEqual([]);
    expect(conversation.history.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
  });

  it('without contextManagement sends plain Messages requests; with it, needs a client with the beta API', async () => {
    server.handle('/v1/messages', () => answer([{ type: 'text', text: 'Hello.' }]));
    const plain = createAnthropicConversation({
      client,
      request: { model: 'claude-sonnet-5-5', max_tokens: 1024 },
      compaction: { strategy: keepEverything, budget: { contextWindow: 200_000 } },
    });
    await plain.send('Hi.');
    expect(server.requests[0]!.headers['anthropic-beta']).toBeUndefined();
    expect(server.requests[0]!.body).not.toHaveProperty('context_management');
    const withoutBeta = () =>
      createAnthropicConversation({
        client: { messages: client.messages as never },
        request: { model: 'claude-sonnet-5-5', max_tokens: 1024 },
        compaction: { strategy: keepEverything, budget: { contextWindow: 200_000 } },
        contextManagement: { edits },
      });
    expect(withoutBeta).toThrow(InvalidOptionsError);
    expect(withoutBeta).toThrow(/beta\.messages\.create/);
  });

  it('refuses pause_after_compaction, whose paused answer the conversation does not rebuild around', () => {
    const create = (pause: boolean) =>
      createAnthropicConversation({
        client,
        request: { model: 'claude-sonnet-5-5', max_tokens: 1024 },
        compaction: { strategy: keepEverything, budget: { contextWindow: 200_000 } },
        contextManagement: {
          edits: [edits[0]!, { type: 'compact_20260112', pause_after_compaction: pause }],
        },
      });
    expect(() => create(true)).toThrow(InvalidOptionsError);
    expect(() => create(true)).toThrow(/contextManagement\.edits\.1\.pause_after_compaction/);
    expect(() => create(false)).not.toThrow();
    expect(server.requests).toEqual([]);
  });

  it('names each beta flag once', () => {
    expect(contextManagementBetas([{ type: 'clear_thinking_20251015' }, ...edits])).toEqual([
      'context-management-2025-06-27',
      'compact-2026-01-12',
    ]);
    expect(contextManagementBetas([])).toEqual([]);
  });
});
