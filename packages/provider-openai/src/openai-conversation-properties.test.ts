import { createFastEstimator, createStrategyRegistry, resolveCompactionConfig } from '@compaction/core';
import slidingWindow from '@compaction/strategy-sliding-window';
import toolResultTruncation from '@compaction/strategy-tool-result-truncation';
import { checkScriptedConversationProperty } from '@compaction/testing/vitest';
import OpenAI from 'openai';
import { expect, it } from 'vitest';
import { chatRequestProblems, scriptChatAgent } from './__fixtures__/openai-conversation-script.js';
import { createOpenAIConversation } from './index.js';

const estimator = createFastEstimator();
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
    contextWindow: { min: 6_000, max: 20_000 },
    estimator,
    script: scriptChatAgent,
    create: (server, compaction) => {
      const initial: OpenAI.Chat.ChatCompletionMessageParam[] = [
        { role: 'system', content: 'You are a coding agent.' },
        { role: 'user', content: 'Read the modules.' },
      ];
      const conversation = createOpenAIConversation({
        client: new OpenAI({ apiKey: 'test-key', baseURL: `${server.url}/v1`, maxRetries: 0 }),
        messages: initial,
        request: { model: 'gpt-5.4', max_completion_tokens: 1_024 },
        compaction,
      });
      return { conversation, initial };
    },
    run: (conversation, runTool) =>
      conversation.run(undefined, {
        maxSteps: 40,
        runTool: (call) => runTool(call.id, (JSON.parse(call.function.arguments) as { path: string }).path),
      }),
    expectFinished: (completion) => expect(completion.choices[0]!.finish_reason).toBe('stop'),
    requestProblems: chatRequestProblems,
    toolResults: (conversation) =>
      conversation.history.flatMap((message) =>
        message.role === 'tool' ? [{ callId: message.tool_call_id, content: message.content }] : [],
      ),
  });
}, 60_000);
