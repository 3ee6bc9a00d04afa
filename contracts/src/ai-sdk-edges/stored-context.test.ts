import { compactionMiddleware, fromAiSdk } from '@compaction/ai-sdk';
import { createTokenCounter } from '@compaction/core';
import { createSlidingWindow } from '@compaction/strategy-sliding-window';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { APICallError, generateText, type ModelMessage, stepCountIs, wrapLanguageModel } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finalText, scriptedHistory, scriptedModel, scriptedTools } from './scripted-agent-run.js';

// A Responses call that continues context the API stores (`previousResponseId`, or a `conversation` the new
// items are added to) is not the whole conversation: the history the model sees is upstream, where compaction
// cannot count or shorten it, and with `conversation` the items the call sends are stored for good. The
// middleware leaves such calls alone: what goes out is what goes out without it, and a refusal is the caller's.

let server: TestServer;
let history: ModelMessage[];
beforeAll(async () => {
  server = await startTestServer();
  history = [
    ...(await scriptedHistory(server, 'openai-responses', 9, false)),
    { role: 'user', content: 'Good. Now write the changelog entry for the fix.' },
  ];
});
afterAll(() => server.close());

const continuations = [
  ['previousResponseId', { previousResponseId: 'resp_0a1b2c' }],
  ['conversation', { conversation: 'conv_6f2a9d' }],
] as const;

function middlewareFor(messages: ModelMessage[]) {
  const tokens = createTokenCounter().count(fromAiSdk(messages));
  return compactionMiddleware({
    strategy: createSlidingWindow(),
    budget: {
      contextWindow: tokens * 4,
      reservedOutputTokens: 0,
      safetyMargin: 0,
      trigger: Math.floor(tokens * 0.5),
      target: Math.floor(tokens * 0.25),
    },
  });
}

async function send(
  continuation: Record<string, string>,
  middleware?: ReturnType<typeof compactionMiddleware>,
): Promise<unknown> {
  const model = scriptedModel('openai-responses', server);
  await generateText({
    model: middleware === undefined ? model : wrapLanguageModel({ model, middleware }),
    tools: scriptedTools('openai-responses', server),
    messages: history,
    maxRetries: 0,
    stopWhen: stepCountIs(1),
    providerOptions: { openai: { store: true, ...continuation } },
  });
  return server.requests.at(-1)!.body;
}

describe('the compaction middleware on Responses calls that continue stored context', () => {
  it.each(continuations)('sends a call with %s as it is, however long', async (_name, continuation) => {
    server.reset();
    server.handle('/v1/responses', () => ({ body: finalText('openai-responses', 'Written.') }));
    const baseline = await send(continuation);
    const middleware = middlewareFor(history);
    let compactions = 0;
    middleware.compactor.on('end', () => compactions++);
    const sent = await send(continuation, middleware);

    expect(compactions).toBe(0);
    expect(sent).toEqual(baseline);
  });

  it.each(continuations)(
    'passes a context overflow of a call with %s to the caller, without retrying',
    async (_name, continuation) => {
      server.reset();
      server.handle('/v1/responses', () => ({
        status: 400,
        body: {
          error: {
            message:
              'Your input exceeds the context window of this model. Please adjust your input and try again.',
            type: 'invalid_request_error',
            param: 'input',
            code: 'context_length_exceeded',
          },
        },
      }));
      const error = await send(continuation, middlewareFor(history)).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(APICallError.isInstance(error)).toBe(true);
      expect(server.requests).toHaveLength(1);
    },
  );

  it('still compacts the same call when it sends the whole context', async () => {
    server.reset();
    server.handle('/v1/responses', () => ({ body: finalText('openai-responses', 'Written.') }));
    const baseline = (await send({})) as { input: unknown[] };
    const sent = (await send({}, middlewareFor(history))) as { input: unknown[] };
    expect(sent.input.length).toBeLessThan(baseline.input.length);
  });
});
