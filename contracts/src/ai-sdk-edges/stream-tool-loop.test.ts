import { compactionMiddleware, compactionPrepareStep, fromAiSdk } from '@compaction/ai-sdk';
import { BudgetUnreachableError, createTokenCounter } from '@compaction/core';
import {
  anthropicMessagesViolations,
  compactedRequestViolations,
  openAIChatViolations,
  openAIResponsesViolations,
} from '@compaction/testing';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { stepCountIs, streamText, wrapLanguageModel } from 'ai';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AiSdkConversation, aiSdkConversationArbitrary } from '../ai-sdk/ai-sdk-conversation.js';
import {
  aiSdkTargets,
  requestPaths,
  targetModel,
  targetProviderOptions,
  targetTools,
} from '../ai-sdk/ai-sdk-target.js';
import { strategiesUnderTest } from '../strategies-under-test.js';
import { streamedText, streamedToolCall } from './provider-answers.js';

// `streamText` in a tool loop through the real providers, streamed answers: the first step asks for a tool call
// (with thinking or encrypted reasoning), the second answers with text. Each generated conversation is sent
// once without compaction and then through each integration at a budget that forces compaction; every request
// of the compacted call is checked against the request sent at the same step without it.

const runs = Number(process.env.AI_SDK_EDGE_RUNS ?? 3);
const seed = Number(process.env.AI_SDK_EDGE_SEED ?? Date.now() % 2 ** 31);
const strategyName = process.env.AI_SDK_EDGE_STRATEGY ?? 'default pipeline';
const strategy = strategiesUnderTest.find((candidate) => candidate.name.startsWith(strategyName))!;
console.log(
  `streamText tool loops: ${strategy.name}, ${runs} conversations per target, seed ${seed} (AI_SDK_EDGE_SEED)`,
);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const validators = {
  anthropic: anthropicMessagesViolations,
  'openai-chat': openAIChatViolations,
  'openai-responses': openAIResponsesViolations,
};

async function streamCall(conversation: AiSdkConversation, integration?: 'middleware' | 'prepare-step') {
  const { target } = conversation;
  const tokens = createTokenCounter().count(fromAiSdk(conversation.messages));
  const targetTokens = Math.max(2, Math.floor(tokens * 0.25));
  const settings = {
    strategy: await strategy.strategy(),
    ...(strategy.fallback === undefined ? {} : { fallback: await strategy.fallback() }),
    budget: {
      contextWindow: Math.max(200_000, tokens * 4),
      reservedOutputTokens: 0,
      safetyMargin: 0,
      trigger: Math.floor((tokens + targetTokens) / 2),
      target: targetTokens,
    },
  };
  const middleware = integration === 'middleware' ? compactionMiddleware(settings) : undefined;
  const prepareStep = integration === 'prepare-step' ? compactionPrepareStep(settings) : undefined;
  let compactions = 0;
  (middleware ?? prepareStep)?.compactor.on('end', () => compactions++);
  server.reset();
  let step = 0;
  server.handle(requestPaths[target], (request) => {
    const body = request.body as { thinking?: { type?: string } };
    const thinking = body.thinking !== undefined && body.thinking.type !== 'disabled';
    const inputTokens = Math.ceil(request.rawBody.length / 4);
    return step++ === 0
      ? streamedToolCall(target, thinking, inputTokens)
      : streamedText(target, 'Done.', inputTokens);
  });
  const model = targetModel(target, server.url);
  const providerOptions = targetProviderOptions(target, conversation);
  let failure: unknown;
  const result = streamText({
    model: middleware === undefined ? model : wrapLanguageModel({ model, middleware }),
    messages: conversation.messages,
    ...(conversation.system === undefined ? {} : { system: conversation.system }),
    tools: targetTools(target, server.url, conversation),
    ...(providerOptions === undefined ? {} : { providerOptions }),
    ...(prepareStep === undefined ? {} : { prepareStep }),
    allowSystemInMessages: true,
    maxRetries: 0,
    stopWhen: stepCountIs(2),
    experimental_download: async (requests: readonly unknown[]) => requests.map(() => null),
    onError: ({ error }) => {
      failure = error;
    },
  });
  await result.consumeStream();
  return {
    failure,
    compactions,
    text: failure === undefined ? await result.text : '',
    bodies: server.requests.map((request) => request.body),
  };
}

describe('streamText tool loops through the real AI SDK providers', () => {
  it.each(aiSdkTargets)('%s: every compacted request is one the API accepts', async (target) => {
    const conversations = fc.sample(aiSdkConversationArbitrary(target, { minRounds: 4, maxRounds: 10 }), {
      seed,
      numRuns: runs,
    });
    const problems: unknown[] = [];
    let compacted = 0;
    for (const [index, conversation] of conversations.entries()) {
      const baseline = await streamCall(conversation);
      expect(baseline.failure).toBeUndefined();
      expect(baseline.bodies).toHaveLength(2);
      for (const body of baseline.bodies) expect(validators[target](body)).toEqual([]);
      for (const integration of ['middleware', 'prepare-step'] as const) {
        const call = await streamCall(conversation, integration);
        if (call.failure !== undefined) {
          if (!BudgetUnreachableError.isInstance(call.failure))
            problems.push({ index, integration, failure: String(call.failure) });
          continue;
        }
        expect(call.text).toBe('Done.');
        if (call.compactions > 0) compacted++;
        call.bodies.forEach((body, step) => {
          const violations = compactedRequestViolations(target, baseline.bodies[step], body);
          if (violations.length > 0) problems.push({ index, integration, step, violations });
        });
      }
    }
    expect(problems).toEqual([]);
    expect(compacted).toBeGreaterThan(0);
  });
});
