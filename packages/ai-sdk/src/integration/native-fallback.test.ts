import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { type CompactionEvent, createStrategyRegistry, resolveCompactionConfig } from '@compaction/core';
import { nativeDefinition } from '@compaction/strategy-native';
import { slidingWindowDefinition } from '@compaction/strategy-sliding-window';
import { toolResultTruncationDefinition } from '@compaction/strategy-tool-result-truncation';
import { openAIChatViolations } from '@compaction/testing';
import { generateText, stepCountIs, wrapLanguageModel } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ChatCompletionsServer,
  type ScriptedAnswer,
  startChatCompletionsServer,
} from '../__fixtures__/chat-completions-server.js';
import { budget, openingMessages, stepAnswer, toolSteps, tools } from '../__fixtures__/long-conversation.js';
import { compactionMiddleware } from './compaction-middleware.js';

let server: ChatCompletionsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the native strategy in the AI SDK middleware', () => {
  it('runs its local fallback at every compaction: AI SDK messages cannot carry a compaction block or item', async () => {
    let answered = 0;
    server = await startChatCompletionsServer((): ScriptedAnswer => stepAnswer(answered++));
    // By name, as a JSON config names it; no provider offers native compaction to the AI SDK path.
    const resolved = await resolveCompactionConfig(
      {
        strategy: {
          name: 'native',
          options: {
            fallback: [{ name: 'tool-result-truncation', options: { keepRecent: 1 } }, 'sliding-window'],
          },
        },
      },
      createStrategyRegistry({
        definitions: [nativeDefinition, toolResultTruncationDefinition, slidingWindowDefinition],
      }),
    );
    const middleware = compactionMiddleware({ ...resolved, budget, sessionId: 'native' });
    const events: CompactionEvent[] = [];
    middleware.compactor.on('end', (event) => events.push(event));
    const provider = createOpenAICompatible({ name: 'local', baseURL: server.baseURL, includeUsage: true });
    const result = await generateText({
      model: wrapLanguageModel({ model: provider('local-model'), middleware }),
      tools,
      messages: openingMessages(),
      allowSystemInMessages: true,
      maxRetries: 0,
      stopWhen: stepCountIs(toolSteps + 1),
    });

    expect(result.steps).toHaveLength(toolSteps + 1);
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      expect(event.strategy).toBe('native');
      expect(event.details).toMatchObject({
        native: { used: false, reason: 'no native compaction configured', fallback: 'pipeline' },
      });
      expect(event.tokensAfter).toBeLessThan(event.tokensBefore);
    }
    for (const request of server.requests) {
      expect(openAIChatViolations(request.body)).toEqual([]);
      expect(JSON.stringify(request.body)).not.toContain('"compaction"');
    }
  });
});
