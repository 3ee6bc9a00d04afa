import Anthropic from '@anthropic-ai/sdk';
import {
  type CompactionConfig,
  createProviderRegistry,
  createStrategyRegistry,
  resolveCompactionConfig,
} from '@compaction/core';
import { nativeCompactionOf, nativeDefinition } from '@compaction/strategy-native';
import { slidingWindowDefinition } from '@compaction/strategy-sliding-window';
import { toolResultTruncationDefinition } from '@compaction/strategy-tool-result-truncation';
import { anthropicMessagesViolations, compactedRequestViolations } from '@compaction/testing';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  compactionBlock,
  longText,
  newestIndex,
  type SentBody,
  speakCompaction,
} from './__fixtures__/anthropic-compaction-server.js';
import { createAnthropicConversation, createAnthropicProvider } from './index.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

const budget = { contextWindow: 4_000, reservedOutputTokens: 512, trigger: 0.6, target: 0.55 };

/** Resolves `native` by name with the `anthropic` provider loaded by name, as a user's JSON config is. */
async function resolveNative(model: string) {
  const config: CompactionConfig = {
    strategy: { name: 'native', options: { fallback: ['tool-result-truncation', 'sliding-window'] } },
    provider: { name: 'anthropic', model, apiKey: 'test-key', baseURL: server.url, maxRetries: 0 },
  };
  const loaded: string[] = [];
  const providers = createProviderRegistry({
    loadPackage: async (packageName) => {
      loaded.push(packageName);
      return import('./index.js');
    },
  });
  const registry = createStrategyRegistry({
    definitions: [nativeDefinition, toolResultTruncationDefinition, slidingWindowDefinition],
  });
  const resolved = await resolveCompactionConfig(config, registry, { providers });
  expect(loaded).toEqual(['@compaction/provider-anthropic']);
  return resolved;
}

async function converse(model: string) {
  speakCompaction(server, model);
  const client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
  const conversation = createAnthropicConversation({
    client,
    system: 'You are a coding agent.',
    request: { model, max_tokens: 512 },
    compaction: { ...(await resolveNative(model)), budget },
  });
  for (let index = 1; index <= 5; index++) await conversation.send(longText(index));
  return conversation;
}

const isCompactionRequest = (body: unknown) => (body as SentBody).compaction !== undefined;

describe('native by name with the anthropic provider from a config', () => {
  it("uses the provider's on-demand compaction, and every request the loop sends keeps the API's rules", async () => {
    const model = 'claude-sonnet-4-6';
    const conversation = await converse(model);
    const compactions = server.requests.filter((request) => isCompactionRequest(request.body));
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions[0]!.headers['anthropic-beta']).toBe('compact-2026-09-04');
    expect(compactions[0]!.body).toMatchObject({ model, compaction: { type: 'summarize' } });
    expect(conversation.compactions.at(-1)?.details).toMatchObject({
      native: { used: true, provider: 'anthropic' },
    });
    for (const request of server.requests) {
      const sent = request.body as SentBody;
      expect(anthropicMessagesViolations(sent)).toEqual([]);
      if (isCompactionRequest(sent)) continue;
      const full = {
        model,
        max_tokens: 512,
        system: 'You are a coding agent.',
        messages: conversation.history.slice(0, newestIndex(conversation.history, sent) + 1),
      };
      expect(compactedRequestViolations('anthropic', full, sent)).toEqual([]);
    }
    // The requests after the first compaction open with its block, unchanged.
    const after = server.requests.slice(server.requests.indexOf(compactions[0]!) + 1);
    expect(after.length).toBeGreaterThan(0);
    for (const request of after.filter((each) => !isCompactionRequest(each.body))) {
      expect(((request.body as SentBody).messages[0]!.content as unknown[])[0]).toEqual(compactionBlock);
    }
  });

  it('falls back to the local strategy for a model without on-demand compaction', async () => {
    const conversation = await converse('claude-3-5-haiku-latest');
    expect(server.requests.some((request) => isCompactionRequest(request.body))).toBe(false);
    expect(conversation.compactions.length).toBeGreaterThan(0);
    expect(conversation.compactions.at(-1)?.details).toMatchObject({
      native: {
        used: false,
        reason: 'the anthropic model has no native compaction',
        fallback: 'pipeline',
      },
    });
    for (const request of server.requests) expect(anthropicMessagesViolations(request.body)).toEqual([]);
  });
});

describe('the nativeCompaction member of the anthropic provider', () => {
  it('is absent when the injected client has no beta Messages API, so native falls back', () => {
    const client = { messages: { create: async () => ({}), countTokens: async () => ({}) } } as never;
    expect(nativeCompactionOf(createAnthropicProvider({ client }))).toBeUndefined();
    const model = 'claude-opus-4-7';
    const provider = createAnthropicProvider({ client: new Anthropic({ apiKey: 'k' }), model });
    expect(nativeCompactionOf(provider)?.supported()).toBe(true);
    expect(
      nativeCompactionOf(createAnthropicProvider({ model: 'claude-3-5-haiku-latest' }))?.supported(),
    ).toBe(false);
  });
});
