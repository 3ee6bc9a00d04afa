import { InvalidOptionsError } from '@compaction/core';
import type { TestServer } from '@compaction/testing/loopback-server';
import type OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compaction, model, startLoopbackOpenAI } from './__fixtures__/openai-conversation-setup.js';
import { createOpenAIResponsesConversation } from './index.js';

// A Responses conversation sends its whole context each time. `previous_response_id` or `conversation` would
// make the API add the stored history to it (every item twice), so the types leave them out; a caller who
// passes one anyway (plain JavaScript, a cast) gets a clear error before anything is sent.

let server: TestServer;
let client: OpenAI;
beforeEach(async () => {
  ({ server, client } = await startLoopbackOpenAI());
});
afterEach(() => server.close());

const continuations = [
  ['previous_response_id', { previous_response_id: 'resp_0a1b2c' }],
  ['conversation', { conversation: 'conv_6f2a9d' }],
] as const;

describe('a Responses conversation and context the API stores', () => {
  it.each(continuations)('refuses %s in its request settings', async (field, continuation) => {
    const settings = {
      client,
      request: { model, store: false, ...continuation } as never,
      compaction: await compaction(),
    };
    const error = (() => {
      try {
        createOpenAIResponsesConversation(settings);
        return undefined;
      } catch (failure) {
        return failure;
      }
    })();
    expect(InvalidOptionsError.isInstance(error)).toBe(true);
    expect(String((error as Error).message)).toContain(field);
  });

  it.each(continuations)('refuses %s given for one call, before sending', async (field, continuation) => {
    const conversation = createOpenAIResponsesConversation({
      client,
      request: { model, store: false },
      compaction: await compaction(),
    });
    const error = await conversation.send('Hello', { request: continuation as never }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(InvalidOptionsError.isInstance(error)).toBe(true);
    expect(String((error as Error).message)).toContain(field);
    expect(server.requests).toHaveLength(0);
  });
});
