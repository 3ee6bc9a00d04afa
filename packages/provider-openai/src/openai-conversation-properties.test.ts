import {
  CompactionError,
  createFastEstimator,
  createStrategyRegistry,
  resolveCompactionConfig,
} from '@compaction/core';
import slidingWindow from '@compaction/strategy-sliding-window';
import toolResultTruncation from '@compaction/strategy-tool-result-truncation';
import { startTestServer } from '@compaction/testing/loopback-server';
import fc from 'fast-check';
import OpenAI from 'openai';
import { expect, it } from 'vitest';
import {
  chatRequestProblems,
  readFileOutput,
  scriptChatAgent,
} from './__fixtures__/openai-conversation-script.js';
import { createOpenAIConversation } from './index.js';

const estimator = createFastEstimator();
const registry = createStrategyRegistry({ definitions: [toolResultTruncation, slidingWindow] });

const scenario = fc.record({
  calls: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 2, maxLength: 9 }),
  lineCounts: fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }),
  overflowAt: fc.option(fc.integer({ min: 2, max: 9 }), { nil: undefined }),
  contextWindow: fc.integer({ min: 6_000, max: 20_000 }),
  trigger: fc.constantFrom(0.5, 0.7, 0.85),
});

it('sends only valid requests within the limit and keeps the history whole, whatever the loop', async () => {
  await fc.assert(
    fc.asyncProperty(scenario, async ({ calls, lineCounts, overflowAt, contextWindow, trigger }) => {
      const server = await startTestServer();
      try {
        const exchanges = scriptChatAgent(server, {
          toolSteps: calls.length,
          calls,
          estimator,
          contextWindow,
          ...(overflowAt === undefined ? {} : { overflowAt: [overflowAt] }),
        });
        const initial: OpenAI.Chat.ChatCompletionMessageParam[] = [
          { role: 'system', content: 'You are a coding agent.' },
          { role: 'user', content: 'Read the modules.' },
        ];
        const snapshot = structuredClone(initial);
        const conversation = createOpenAIConversation({
          client: new OpenAI({ apiKey: 'test-key', baseURL: `${server.url}/v1`, maxRetries: 0 }),
          messages: initial,
          request: { model: 'gpt-5.4', max_completion_tokens: 1_024 },
          compaction: {
            ...(await resolveCompactionConfig(
              { strategy: ['tool-result-truncation', 'sliding-window'] },
              registry,
            )),
            estimator,
            budget: { contextWindow, trigger, target: trigger - 0.2 },
          },
        });
        const outputs = new Map<string, string>();
        let index = 0;
        const outcome = await conversation
          .run(undefined, {
            maxSteps: 40,
            runTool: (call) => {
              const path = (JSON.parse(call.function.arguments) as { path: string }).path;
              const output = readFileOutput(path, lineCounts[index++ % lineCounts.length]);
              outputs.set(call.id, output);
              return output;
            },
          })
          .then(
            (completion) => ({ completion }),
            (error: unknown) => ({ error }),
          );

        // A failure is a typed error (an overflow retry that cannot get small enough), never a crash.
        if ('error' in outcome) expect(CompactionError.isInstance(outcome.error)).toBe(true);
        else expect(outcome.completion.choices[0]!.finish_reason).toBe('stop');

        const { limit } = conversation.compactor.budget;
        for (const exchange of exchanges) {
          expect(chatRequestProblems(exchange.request.body)).toEqual([]);
          if (!exchange.overflowed) expect(exchange.inputTokens).toBeLessThanOrEqual(limit * 1.02);
        }
        if ('completion' in outcome && overflowAt !== undefined && overflowAt <= calls.length + 1) {
          expect(conversation.compactions.filter((event) => event.trigger === 'overflow')).toHaveLength(1);
        }
        expect(initial).toEqual(snapshot);
        const results = conversation.history.filter((message) => message.role === 'tool');
        expect(results.map((result) => result.content)).toEqual(
          results.map((result) => outputs.get(result.tool_call_id)),
        );
        expect(results).toHaveLength(outputs.size);
      } finally {
        await server.close();
      }
    }),
    { numRuns: 25 },
  );
}, 60_000);
