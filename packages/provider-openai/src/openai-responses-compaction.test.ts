import type { CompactionStrategy } from '@compaction/core';
import { openAIResponsesViolations } from '@compaction/testing';
import type { TestServer } from '@compaction/testing/loopback-server';
import type OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { model, startLoopbackOpenAI } from './__fixtures__/openai-conversation-setup.js';
import { createOpenAIResponsesConversation } from './index.js';

let server: TestServer;
let client: OpenAI;

beforeEach(async () => {
  ({ server, client } = await startLoopbackOpenAI());
});
afterEach(() => server.close());

/** Local compaction never fires at these sizes; the strategy is only there because the compactor needs one. */
const keepEverything: CompactionStrategy = {
  specificationVersion: 'v1',
  name: 'keep-everything',
  compact: async ({ messages }) => ({ messages: [...messages] }),
};

/** An opaque compaction item, as the API returns it when it compacted during the response. */
const compactionItem = { type: 'compaction', id: 'cmp_1', encrypted_content: 'opaque-state-1' };

function response(index: number, output: unknown[]) {
  return {
    status: 200,
    body: {
      id: `resp_${index}`,
      object: 'response',
      created_at: 1_800_000_000,
      model,
      status: 'completed',
      parallel_tool_calls: true,
      tool_choice: 'auto',
      tools: [],
      error: null,
      incomplete_details: null,
      output,
      usage: {
        input_tokens: 900,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 20,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 920,
      },
    },
  };
}

const message = (index: number, text: string) => ({
  type: 'message',
  id: `msg_${index}`,
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', text, annotations: [] }],
});

describe('OpenAI Responses compaction in a conversation, over the real SDK', () => {
  it('sends context_management on create and carries the compaction item forward as it came', async () => {
    server.handle('/v1/responses', () =>
      server.requests.length === 1
        ? response(1, [compactionItem, message(1, 'Here is the plan.')])
        : response(2, [message(2, 'Done.')]),
    );
    const contextManagement = [{ type: 'compaction', compact_threshold: 200_000 }];
    const conversation = createOpenAIResponsesConversation({
      client,
      request: { model, max_output_tokens: 1024, store: false, context_management: contextManagement },
      compaction: { strategy: keepEverything, budget: { contextWindow: 400_000 } },
    });
    await conversation.send('Plan the refactoring.');
    await conversation.send('Go on.');
    const [first, second] = server.requests;
    expect(first!.body).toMatchObject({ context_management: contextManagement });
    expect(second!.body).toMatchObject({ context_management: contextManagement });
    // The items before the latest compaction item are dropped, as the guide allows: it carries their context.
    const input = (second!.body as { input: Record<string, unknown>[] }).input;
    expect(input).toEqual([
      compactionItem,
      message(1, 'Here is the plan.'),
      { role: 'user', content: 'Go on.' },
    ]);
    expect(openAIResponsesViolations(second!.body)).toEqual([]);
    // The whole history keeps every item: the first request, the compaction item, both answers.
    expect(conversation.history).toHaveLength(5);
  });
});
