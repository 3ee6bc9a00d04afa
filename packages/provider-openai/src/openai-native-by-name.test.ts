import {
  type CompactionConfig,
  createProviderRegistry,
  createStrategyRegistry,
  resolveCompactionConfig,
} from '@compaction/core';
import { nativeCompactionOf, nativeDefinition } from '@compaction/strategy-native';
import { slidingWindowDefinition } from '@compaction/strategy-sliding-window';
import { toolResultTruncationDefinition } from '@compaction/strategy-tool-result-truncation';
import {
  compactedRequestViolations,
  openAIChatViolations,
  openAIResponsesViolations,
} from '@compaction/testing';
import type { TestServer } from '@compaction/testing/loopback-server';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startLoopbackOpenAI } from './__fixtures__/openai-conversation-setup.js';
import {
  createOpenAIConversation,
  createOpenAIProvider,
  createOpenAIResponsesConversation,
} from './index.js';

let server: TestServer;
let client: OpenAI;
beforeEach(async () => {
  ({ server, client } = await startLoopbackOpenAI());
});
afterEach(() => server.close());

const model = 'gpt-5.4';
const budget = { contextWindow: 4_000, reservedOutputTokens: 512, trigger: 0.6, target: 0.3 };
/** The opaque item `responses.compact` ends its window with. */
const compactionItem = { id: 'cmp_1', type: 'compaction', encrypted_content: 'opaque-window-1' };

type Item = Record<string, unknown> & { role?: string; type?: string; content?: unknown };
type ResponsesBody = { model: string; input: Item[] | string };

/** A user turn of a few hundred tokens that no estimator shortcut counts as a repeat. */
const longText = (index: number) =>
  `Step ${index}:\n${Array.from({ length: 60 }, (_, line) => `line ${line} of file ${index}: value ${(line * 7919 + index * 104729) % 100003}`).join('\n')}`;

const usage = (input: unknown) => ({
  input_tokens: Math.ceil(JSON.stringify(input).length / 4),
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 20,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: Math.ceil(JSON.stringify(input).length / 4) + 20,
});

/**
 * Speaks the Responses API: `/v1/responses/compact` answers with the documented window (the input's user
 * messages, then one compaction item, SDK `CompactedResponse`), `/v1/responses` with a text answer.
 */
function speakResponses() {
  server.handle('/v1/responses/compact', (request) => {
    const { input } = request.body as ResponsesBody;
    const items = typeof input === 'string' ? [{ role: 'user', content: input }] : input;
    const users = items
      .filter((item) => item.role === 'user')
      .map((item, index) => ({
        id: `msg_user_${index}`,
        type: 'message',
        status: 'completed',
        role: 'user',
        content:
          typeof item.content === 'string' ? [{ type: 'input_text', text: item.content }] : item.content,
      }));
    return {
      status: 200,
      body: {
        id: 'cmp_resp_1',
        object: 'response.compaction',
        created_at: 1_800_000_000,
        output: [...users, compactionItem],
        usage: usage(input),
      },
    };
  });
  server.handle('/v1/responses', (request) => {
    const index = server.requests.length;
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
        output: [
          {
            type: 'message',
            id: `msg_${index}`,
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text: longText(index), annotations: [] }],
          },
        ],
        usage: usage((request.body as ResponsesBody).input),
      },
    };
  });
}

/** Resolves `native` by name with the `openai` provider loaded by name, as a user's JSON config is. */
async function resolveNative(api: 'chat' | 'responses') {
  const config: CompactionConfig = {
    strategy: { name: 'native', options: { fallback: ['tool-result-truncation', 'sliding-window'] } },
    provider: { name: 'openai', model, api, apiKey: 'test-key', baseURL: `${server.url}/v1`, maxRetries: 0 },
  };
  const providers = createProviderRegistry({ loadPackage: async () => import('./index.js') });
  const registry = createStrategyRegistry({
    definitions: [nativeDefinition, toolResultTruncationDefinition, slidingWindowDefinition],
  });
  return resolveCompactionConfig(config, registry, { providers });
}

const requestsTo = (path: string) => server.requests.filter((request) => request.path === path);

describe('native by name with the openai provider from a config', () => {
  it('compacts a Responses conversation with responses.compact and sends the window unpruned, in valid requests', async () => {
    speakResponses();
    const conversation = createOpenAIResponsesConversation({
      client,
      request: { model, max_output_tokens: 512, store: false },
      compaction: { ...(await resolveNative('responses')), budget },
    });
    // Short requests, long answers: the window keeps every user message, so the answers are what it saves.
    for (let index = 1; index <= 6; index++) await conversation.send(`Read file ${index}.`);

    const compacts = requestsTo('/v1/responses/compact');
    expect(compacts.length).toBeGreaterThan(0);
    expect((compacts[0]!.body as ResponsesBody).model).toBe(model);
    expect(conversation.compactions.at(-1)?.details).toMatchObject({
      native: { used: true, provider: 'openai' },
    });

    const creates = requestsTo('/v1/responses');
    const afterCompact = creates.filter((request) => request.receivedAt > compacts[0]!.receivedAt);
    expect(afterCompact.length).toBeGreaterThan(1);
    for (const request of creates) {
      const sent = request.body as ResponsesBody;
      expect(openAIResponsesViolations(sent)).toEqual([]);
      // Against the request the whole history up to its newest user turn would have made.
      const newest = JSON.stringify((sent.input as Item[]).at(-1));
      const end = conversation.history.findIndex((item) => JSON.stringify(item) === newest);
      const full = {
        model,
        max_output_tokens: 512,
        store: false,
        input: conversation.history.slice(0, end + 1),
      };
      expect(compactedRequestViolations('openai-responses', full, sent)).toEqual([]);
    }
    // Every request after a compaction carries its whole window (user messages, then the item) before the rest.
    for (const request of afterCompact) {
      const input = (request.body as ResponsesBody).input as Item[];
      const at = input.findIndex((item) => item.type === 'compaction');
      expect(input[at]).toEqual(compactionItem);
      expect(at).toBeGreaterThan(0);
      expect(input.slice(0, at).every((item) => item.role === 'user' && item.type === 'message')).toBe(true);
    }
  });

  it('falls back in a Chat Completions conversation: the provider has no native compaction there', async () => {
    server.handle('/v1/chat/completions', (request) => ({
      status: 200,
      body: {
        id: `chat_${server.requests.length}`,
        object: 'chat.completion',
        created: 1_800_000_000,
        model,
        choices: [
          {
            index: 0,
            finish_reason: 'stop',
            message: { role: 'assistant', content: `Answer ${server.requests.length}.`, refusal: null },
          },
        ],
        usage: {
          prompt_tokens: Math.ceil(
            JSON.stringify((request.body as { messages: unknown }).messages).length / 4,
          ),
          completion_tokens: 20,
          total_tokens: 0,
        },
      },
    }));
    const resolved = await resolveNative('chat');
    expect(nativeCompactionOf(resolved.provider)).toBeUndefined();
    const conversation = createOpenAIConversation({
      client,
      request: { model, max_completion_tokens: 512 },
      compaction: { ...resolved, budget },
    });
    for (let index = 1; index <= 6; index++) await conversation.send(longText(index));
    expect(requestsTo('/v1/responses/compact')).toEqual([]);
    expect(conversation.compactions.length).toBeGreaterThan(0);
    expect(conversation.compactions.at(-1)?.details).toMatchObject({
      native: { used: false, reason: 'no native compaction configured', fallback: 'pipeline' },
    });
    for (const request of server.requests) {
      expect(openAIChatViolations(request.body)).toEqual([]);
    }
  });
});

describe('the nativeCompaction member of the openai provider', () => {
  it('is there for the Responses API with a client that can compact, and says which models have it', () => {
    expect(nativeCompactionOf(createOpenAIProvider({ api: 'chat', client }))).toBeUndefined();
    expect(nativeCompactionOf(createOpenAIProvider({ api: 'responses', client }))?.supported()).toBe(true);
    const older = createOpenAIProvider({ api: 'responses', client, model: 'gpt-4o' });
    expect(nativeCompactionOf(older)?.supported()).toBe(false);
    const withoutCompact = { chat: client.chat, responses: { create: client.responses.create } } as never;
    expect(
      nativeCompactionOf(createOpenAIProvider({ api: 'responses', client: withoutCompact })),
    ).toBeUndefined();
    expect(OpenAI).toBeDefined();
  });
});
