import Anthropic from '@anthropic-ai/sdk';
import {
  anthropicProfile,
  CompactionError,
  createFastEstimator,
  createStrategyRegistry,
  resolveCompactionConfig,
} from '@compaction/core';
import slidingWindow from '@compaction/strategy-sliding-window';
import toolResultTruncation from '@compaction/strategy-tool-result-truncation';
import { startTestServer } from '@compaction/testing/loopback-server';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import {
  anthropicRequestProblems,
  readFileOutput,
  scriptAgent,
} from './__fixtures__/anthropic-conversation-script.js';
import { createAnthropicConversation } from './index.js';

const estimator = createFastEstimator({ profile: anthropicProfile });
const registry = createStrategyRegistry({ definitions: [toolResultTruncation, slidingWindow] });

const scenario = fc.record({
  calls: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 2, maxLength: 9 }),
  lineCounts: fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }),
  overflowAt: fc.option(fc.integer({ min: 2, max: 9 }), { nil: undefined }),
  contextWindow: fc.integer({ min: 9_000, max: 30_000 }),
  trigger: fc.constantFrom(0.5, 0.7, 0.85),
});

it('sends only valid requests within the limit and keeps the history whole, whatever the loop', async () => {
  await fc.assert(
    fc.asyncProperty(scenario, async ({ calls, lineCounts, overflowAt, contextWindow, trigger }) => {
      const server = await startTestServer();
      try {
        const exchanges = scriptAgent(server, {
          toolSteps: calls.length,
          calls,
          estimator,
          contextWindow,
          ...(overflowAt === undefined ? {} : { overflowAt: [overflowAt] }),
        });
        const initial: Anthropic.MessageParam[] = [{ role: 'user', content: 'Read the modules.' }];
        const conversation = createAnthropicConversation({
          client: new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 }),
          system: 'You are a coding agent.',
          messages: initial,
          request: { model: 'claude-sonnet-5-5', max_tokens: 1_024 },
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
              const output = readFileOutput(
                (call.input as { path: string }).path,
                lineCounts[index++ % lineCounts.length],
              );
              outputs.set(call.id, output);
              return output;
            },
          })
          .then(
            (response) => ({ response }),
            (error: unknown) => ({ error }),
          );

        // A failure is a typed error (an overflow retry that cannot get small enough), never a crash.
        if ('error' in outcome) expect(CompactionError.isInstance(outcome.error)).toBe(true);
        else expect(outcome.response.stop_reason).toBe('end_turn');

        const { limit } = conversation.compactor.budget;
        for (const exchange of exchanges) {
          expect(anthropicRequestProblems(exchange.request.body)).toEqual([]);
          if (!exchange.overflowed) expect(exchange.inputTokens).toBeLessThanOrEqual(limit * 1.02);
        }
        if ('response' in outcome && overflowAt !== undefined && overflowAt <= calls.length + 1) {
          expect(conversation.compactions.filter((event) => event.trigger === 'overflow')).toHaveLength(1);
        }
        expect(initial).toEqual([{ role: 'user', content: 'Read the modules.' }]);
        const results = conversation.history.flatMap((message) =>
          typeof message.content === 'string'
            ? []
            : message.content.flatMap((block) => (block.type === 'tool_result' ? [block] : [])),
        );
        expect(results.map((result) => result.content)).toEqual(
          results.map((result) => outputs.get(result.tool_use_id)),
        );
        expect(results).toHaveLength(outputs.size);
      } finally {
        await server.close();
      }
    }),
    { numRuns: 25 },
  );
}, 60_000);
