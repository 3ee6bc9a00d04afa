import { compactionMiddleware, fromAiSdk } from '@compaction/ai-sdk';
import { BudgetUnreachableError, createTokenCounter } from '@compaction/core';
import { compactedRequestViolations } from '@compaction/testing';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { generateText, stepCountIs, streamText, wrapLanguageModel } from 'ai';
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
import { jsonText, overflowRefusal, streamedText } from './provider-answers.js';

// Overflow recovery through the real providers: the first request of a call is refused as too long for the
// context window, in each provider's own words (an HTTP 400, or for a stream a first event that is the
// error), and the middleware compacts with the `overflow` trigger and sends the call once more. The retry must
// be one the API accepts, with nothing lost that must stay, and the caller gets the answer to it.

const runs = Number(process.env.AI_SDK_EDGE_RUNS ?? 3);
const seed = Number(process.env.AI_SDK_EDGE_SEED ?? Date.now() % 2 ** 31);
// AI_SDK_EDGE_STRATEGY picks another strategy under test by name (default: the CLI's default pipeline).
const strategyName = process.env.AI_SDK_EDGE_STRATEGY ?? 'default pipeline';
const strategy = strategiesUnderTest.find((candidate) => candidate.name.startsWith(strategyName))!;
console.log(
  `Overflow recovery: ${strategy.name}, ${runs} conversations per target, seed ${seed} (AI_SDK_EDGE_SEED)`,
);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const answer = 'Recovered: the tests pass.';

/** Runs one call through the middleware; the first request is refused, the next one answered. */
async function refusedOnce(conversation: AiSdkConversation, mode: 'generate' | 'stream', inStream: boolean) {
  const { target } = conversation;
  const tokens = createTokenCounter().count(fromAiSdk(conversation.messages));
  const middleware = compactionMiddleware({
    strategy: await strategy.strategy(),
    ...(strategy.fallback === undefined ? {} : { fallback: await strategy.fallback() }),
    budget: {
      contextWindow: Math.ceil(tokens * 1.2),
      reservedOutputTokens: 0,
      safetyMargin: 0,
      trigger: false,
      target: Math.floor(tokens * 0.5),
    },
  });
  const triggers: string[] = [];
  middleware.compactor.on('end', (event) => triggers.push(event.trigger));
  server.reset();
  server.enqueue(requestPaths[target], overflowRefusal(target, inStream));
  server.handle(requestPaths[target], () =>
    mode === 'stream' ? streamedText(target, answer, 1000) : jsonText(target, answer, 1000),
  );
  const providerOptions = targetProviderOptions(target, conversation);
  const settings = {
    model: wrapLanguageModel({ model: targetModel(target, server.url), middleware }),
    messages: conversation.messages,
    ...(conversation.system === undefined ? {} : { system: conversation.system }),
    tools: targetTools(target, server.url, conversation),
    ...(providerOptions === undefined ? {} : { providerOptions }),
    allowSystemInMessages: true,
    maxRetries: 0,
    stopWhen: stepCountIs(1),
    experimental_download: async (requests: readonly unknown[]) => requests.map(() => null),
  };
  let text: string;
  if (mode === 'generate') {
    text = (await generateText(settings)).text;
  } else {
    let failure: unknown;
    const result = streamText({
      ...settings,
      onError: ({ error }) => {
        failure = error;
      },
    });
    await result.consumeStream();
    if (failure !== undefined) throw failure;
    text = await result.text;
  }
  return { text, triggers, bodies: server.requests.map((request) => request.body) };
}

const cases = aiSdkTargets.flatMap((target) => [
  { target, mode: 'generate' as const, inStream: false },
  { target, mode: 'stream' as const, inStream: false },
  { target, mode: 'stream' as const, inStream: true },
]);

describe('overflow recovery through the real AI SDK providers', () => {
  it.each(cases)(
    '$target, $mode (refused in the stream: $inStream): one compacted retry the API accepts',
    async ({ target, mode, inStream }) => {
      // Conversations whose protected messages alone are over the target are skipped (the one failure allowed),
      // so more are drawn than needed: on some seeds the first few were all such, and nothing was checked.
      const conversations = fc.sample(aiSdkConversationArbitrary(target, { minRounds: 6, maxRounds: 10 }), {
        seed,
        numRuns: runs * 5,
      });
      let recovered = 0;
      for (const conversation of conversations) {
        if (recovered === runs) break;
        const outcome = await refusedOnce(conversation, mode, inStream).catch((error: unknown) => {
          // The one failure allowed: what compaction may not remove is over the limit by itself.
          if (!BudgetUnreachableError.isInstance(error)) throw error;
          return undefined;
        });
        if (outcome === undefined) {
          expect(server.requests).toHaveLength(1);
          continue;
        }
        const { text, triggers, bodies } = outcome;
        expect(text).toBe(answer);
        expect(triggers).toEqual(['overflow']);
        expect(bodies).toHaveLength(2);
        const [refused, retry] = bodies;
        expect(JSON.stringify(retry).length).toBeLessThan(JSON.stringify(refused).length);
        expect(compactedRequestViolations(target, refused, retry)).toEqual([]);
        recovered++;
      }
      expect(recovered).toBeGreaterThan(0);
    },
  );
});
