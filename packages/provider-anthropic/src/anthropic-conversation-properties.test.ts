import Anthropic from '@anthropic-ai/sdk';
import { createFastEstimator, createStrategyRegistry, resolveCompactionConfig } from '@compaction/core';
import slidingWindow from '@compaction/strategy-sliding-window';
import toolResultTruncation from '@compaction/strategy-tool-result-truncation';
import { checkScriptedConversationProperty } from '@compaction/testing/vitest';
import { anthropicProfile } from '@compaction/token-estimator';
import { expect, it } from 'vitest';
import { anthropicRequestProblems, scriptAgent } from './__fixtures__/anthropic-conversation-script.js';
import { createAnthropicConversation } from './index.js';

const estimator = createFastEstimator({ profile: anthropicProfile });
const registry = createStrategyRegistry({ definitions: [toolResultTruncation, slidingWindow] });

it('sends only valid requests within the limit and keeps the history whole, whatever the loop', async () => {
  await checkScriptedConversationProperty({
    compaction: {
      ...(await resolveCompactionConfig(
        { strategy: ['tool-result-truncation', 'sliding-window'] },
        registry,
      )),
      estimator,
    },
    contextWindow: { min: 9_000, max: 30_000 },
    estimator,
    script: scriptAgent,
    create: (server, compaction) => {
      const initial: Anthropic.MessageParam[] = [{ role: 'user', content: 'Read the modules.' }];
      const conversation = createAnthropicConversation({
        client: new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 }),
        system: 'You are a coding agent.',
        messages: initial,
        request: { model: 'claude-sonnet-5-5', max_tokens: 1_024 },
        compaction,
      });
      return { conversation, initial };
    },
    run: (conversation, runTool) =>
      conversation.run(undefined, {
        maxSteps: 40,
        runTool: (call) => runTool(call.id, (call.input as { path: string }).path),
      }),
    expectFinished: (response) => expect(response.stop_reason).toBe('end_turn'),
    requestProblems: anthropicRequestProblems,
    toolResults: (conversation) =>
      conversation.history.flatMap((message) =>
        typeof message.content === 'string'
          ? []
          : message.content.flatMap((block) =>
              block.type === 'tool_result' ? [{ callId: block.tool_use_id, content: block.content }] : [],
            ),
      ),
  });
}, 60_000);
