import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { maximumOverflowRetries, OverflowRetriesExhaustedError } from '@compaction/agent-loop';
import type { CompactionEvent } from '@compaction/core';
import {
  APICallError,
  generateText,
  type ModelMessage,
  stepCountIs,
  streamText,
  wrapLanguageModel,
} from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ChatCompletionsServer,
  contextLengthExceeded,
  requestProblems,
  type ScriptedAnswer,
  startChatCompletionsServer,
} from '../__fixtures__/chat-completions-server.js';
import { freezeMessages } from '../__fixtures__/freeze-messages.js';
import {
  budget,
  createStrategy,
  expectedCompactionSteps,
  fileText,
  openingMessages,
  stepAnswer,
  toolSteps,
  tools,
} from '../__fixtures__/long-conversation.js';
import type { LanguageModelPrompt } from '../ai-sdk-types.js';
import { fromAiSdk } from '../convert/ai-sdk-messages.js';
import { compactionMiddleware } from './compaction-middleware.js';

let server: ChatCompletionsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * Runs the scripted conversation through a model wrapped with the middleware. `refuse` lists the request
 * indexes the server answers with a `context_length_exceeded` error instead of the next step.
 */
async function run(mode: 'generate' | 'stream', refuse: readonly number[] = []) {
  let answered = 0;
  server = await startChatCompletionsServer((_request, index): ScriptedAnswer => {
    if (refuse.includes(index)) return contextLengthExceeded(17_250, 16_000);
    return stepAnswer(answered++);
  });
  const provider = createOpenAICompatible({ name: 'local', baseURL: server.baseURL, includeUsage: true });
  const middleware = compactionMiddleware({ strategy: createStrategy(), budget, sessionId: 'e2e' });
  const events: Array<CompactionEvent & { request: number }> = [];
  const requests = server.requests;
  // The compaction runs before its request is sent: it belongs to the next request index.
  middleware.compactor.on('end', (event) => events.push({ ...event, request: requests.length }));
  const messages = freezeMessages(openingMessages());
  const settings = {
    model: wrapLanguageModel({ model: provider('local-model'), middleware }),
    tools,
    messages,
    allowSystemInMessages: true,
    maxRetries: 0,
    stopWhen: stepCountIs(toolSteps + 1),
  };
  if (mode === 'generate') {
    const result = await generateText(settings);
    return {
      middleware,
      events,
      requests,
      messages,
      text: result.text,
      responseMessages: result.response.messages,
    };
  }
  let streamError: unknown;
  const result = streamText({
    ...settings,
    onError: ({ error }) => {
      streamError = error;
    },
  });
  await result.consumeStream();
  if (streamError !== undefined) throw streamError;
  const responseMessages: ModelMessage[] = (await result.response).messages;
  return { middleware, events, requests, messages, text: await result.text, responseMessages };
}

describe.each(['generate', 'stream'] as const)('compactionMiddleware with %sText', (mode) => {
  it('compacts inside the model at the steps where the prompt crosses the trigger', async () => {
    const { middleware, events, requests, messages, text, responseMessages } = await run(mode);
    const { trigger, target, limit } = middleware.compactor.budget;

    expect(text).toBe('All modules compute values.');
    expect(requests).toHaveLength(toolSteps + 1);
    expect(events.length).toBeGreaterThanOrEqual(3);
    for (const event of events) {
      expect(event).toMatchObject({ trigger: 'auto', sessionId: 'e2e' });
      expect(event.tokensBefore).toBeGreaterThan(trigger!);
      expect(event.tokensAfter).toBeLessThanOrEqual(target);
    }
    const compactedAt = events.map((event) => event.request);
    const added = [
      [],
      ...Array.from({ length: toolSteps }, (_, step) =>
        fromAiSdk(responseMessages.slice(2 * step, 2 * step + 2)),
      ),
    ];
    expect(compactedAt).toEqual(
      expectedCompactionSteps({
        reportedTokens: requests.map((request) => request.promptTokens),
        addedMessages: added,
        counter: middleware.compactor.counter,
        trigger: trigger!,
      }),
    );
    for (let step = 1; step < requests.length; step++) {
      const [previous, current] = [requests[step - 1]!.size, requests[step]!.size];
      if (compactedAt.includes(step)) expect(current, `step ${step}`).toBeLessThan(previous);
      else expect(current, `step ${step}`).toBeGreaterThan(previous);
    }
    for (const [index, request] of requests.entries()) {
      expect(requestProblems(request.body.messages), `request ${index}`).toEqual([]);
      expect(request.promptTokens, `request ${index}`).toBeLessThanOrEqual(limit);
      // Compaction's own fields never reach the provider.
      expect(JSON.stringify(request.body)).not.toContain('"compaction":');
    }
    expect(messages).toEqual(openingMessages());
    expect(responseMessages).toHaveLength(2 * toolSteps + 1);
  });

  it('recovers from one context overflow by compacting and retrying once', async () => {
    const refused = 3;
    const { events, requests, text } = await run(mode, [refused]);

    expect(text).toBe('All modules compute values.');
    expect(requests).toHaveLength(toolSteps + 2);
    const overflows = events.filter((event) => event.trigger === 'overflow');
    expect(overflows).toHaveLength(1);
    expect(overflows[0]!.request).toBe(refused + 1);
    // The retry carries the same conversation, compacted: smaller, and still valid.
    expect(requests[refused + 1]!.size).toBeLessThan(requests[refused]!.size);
    expect(requests[refused + 1]!.body.messages.length).toBeLessThanOrEqual(
      requests[refused]!.body.messages.length,
    );
    for (const [index, request] of requests.entries()) {
      expect(requestProblems(request.body.messages), `request ${index}`).toEqual([]);
    }
    // The compaction made for the overflow is kept for the following steps.
    expect(requests[refused + 2]!.size).toBeLessThan(requests[refused]!.size);
  });

  it('retries as the one overflow policy says: a second refusal is retried, a refused last retry is typed', async () => {
    const refused = 3;
    const { events, requests, text } = await run(mode, [refused, refused + 1]);
    expect(text).toBe('All modules compute values.');
    expect(requests[refused + 2]!.size).toBeLessThan(requests[refused + 1]!.size);
    expect(events.filter((event) => event.trigger === 'overflow')).toHaveLength(2);

    const every = Array.from({ length: maximumOverflowRetries + 1 }, (_, index) => refused + index);
    const error = await run(mode, every).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(OverflowRetriesExhaustedError.isInstance(error)).toBe(true);
    const exhausted = error as OverflowRetriesExhaustedError;
    expect(exhausted).toMatchObject({ requestTokens: 17_250, maximumTokens: 16_000 });
    // The model's own error is kept, and every refused request is listed.
    expect(APICallError.isInstance(exhausted.cause)).toBe(true);
    expect(exhausted.attempts).toHaveLength(every.length);
    expect(server!.requests).toHaveLength(refused + every.length);
  });
});

describe('compactionMiddleware', () => {
  it('passes other model errors through untouched, without retrying', async () => {
    server = await startChatCompletionsServer(() => ({
      kind: 'error',
      status: 400,
      body: {
        error: { message: 'Invalid tool schema', type: 'invalid_request_error', code: 'invalid_schema' },
      },
    }));
    const provider = createOpenAICompatible({ name: 'local', baseURL: server.baseURL });
    const middleware = compactionMiddleware({ strategy: createStrategy(), budget });
    const error = await generateText({
      model: wrapLanguageModel({ model: provider('local-model'), middleware }),
      messages: openingMessages(),
      maxRetries: 0,
    }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('Invalid tool schema');
    expect(server.requests).toHaveLength(1);
  });
});

describe('compactionMiddleware.transformParams', () => {
  it('compacts a long prompt without changing the parameters it was given', async () => {
    const provider = createOpenAICompatible({ name: 'local', baseURL: 'http://127.0.0.1:9/v1' });
    const model = provider('local-model');
    const middleware = compactionMiddleware({ strategy: createStrategy(), budget });
    const prompt: LanguageModelPrompt = [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: [{ type: 'text', text: 'Read every module.' }] },
    ];
    for (let step = 0; step < 8; step++) {
      prompt.push(
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: `c${step}`, toolName: 'read_file', input: {} }],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: `c${step}`,
              toolName: 'read_file',
              output: { type: 'text', value: fileText(`f${step}`) },
            },
          ],
        },
      );
    }
    const params = freezeMessages({ prompt, maxOutputTokens: 100 });
    const snapshot = JSON.stringify(params);
    const transformed = await middleware.transformParams!({ type: 'generate', params, model });
    expect(JSON.stringify(params)).toBe(snapshot);
    expect(transformed).not.toBe(params);
    expect(transformed.maxOutputTokens).toBe(100);
    expect(transformed.prompt.length).toBeLessThanOrEqual(prompt.length);
    expect(JSON.stringify(transformed.prompt).length).toBeLessThan(snapshot.length / 2);
    expect(transformed.prompt[0]).toBe(params.prompt[0]);
  });
});
