import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { InMemoryCompactionStore, type Message } from '@compaction/core';
import { archivingMaskStrategy, nextRecallStep } from '@compaction/testing';
import { generateText, stepCountIs } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ChatCompletionsServer,
  type ChatMessage,
  requestProblems,
  type ScriptedAnswer,
  startChatCompletionsServer,
} from '../__fixtures__/chat-completions-server.js';
import { fileText, tools } from '../__fixtures__/long-conversation.js';
import { compactionPrepareStep } from './compaction-prepare-step.js';
import { compactionRecallTool } from './compaction-recall-tool.js';

let server: ChatCompletionsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const paths = ['src/a.ts', 'src/b.ts', 'src/c.ts'];
/** Three files of about 1,900 tokens cross the trigger; clearing the older ones brings the context under it. */
const budget = { contextWindow: 8_000, reservedOutputTokens: 0, safetyMargin: 0, trigger: 0.5, target: 0.3 };

/** The tool results of a request as core messages: all the scripted model reads. */
function toolResultsOf(messages: readonly ChatMessage[]): Message[] {
  const names = new Map(
    messages.flatMap((message) => (message.tool_calls ?? []).map((call) => [call.id, call.function.name])),
  );
  return messages.flatMap((message): Message[] => {
    if (message.role !== 'tool' || message.tool_call_id === undefined) return [];
    const toolName = names.get(message.tool_call_id) ?? '';
    const output = String(message.content);
    return [
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: message.tool_call_id, toolName, output }],
      },
    ];
  });
}

/** The scripted model: reads the files, recalls what a placeholder names, answers. */
function recallModel(request: { body: { messages: ChatMessage[] } }): ScriptedAnswer {
  const step = nextRecallStep(toolResultsOf(request.body.messages), paths);
  return step.kind === 'answer'
    ? { kind: 'text', text: step.text }
    : { kind: 'tool-call', toolName: step.toolName, input: step.input };
}

describe('compactionRecallTool', () => {
  it('lets a generateText loop recall a result that compaction cleared, exactly, and finish', async () => {
    server = await startChatCompletionsServer(recallModel);
    const provider = createOpenAICompatible({ name: 'local', baseURL: server.baseURL, includeUsage: true });
    const store = new InMemoryCompactionStore();
    const sessionId = 'task-7';
    const prepareStep = compactionPrepareStep({
      strategy: archivingMaskStrategy(),
      budget,
      store,
      archive: true,
      sessionId,
    });
    const recall = compactionRecallTool({ store, sessionId });
    const result = await generateText({
      model: provider('local-model'),
      tools: { ...tools, recall },
      messages: [{ role: 'user', content: 'Read the three modules, then report.' }],
      maxRetries: 0,
      stopWhen: stepCountIs(8),
      prepareStep,
    });

    const first = fileText(paths[0]!);
    expect(result.text).toBe(`Recalled ${first.length} characters; it starts "${first.split('\n')[0]}".`);
    const requests = server.requests;
    // A compaction cleared the first file's output; the model called recall with the handle its placeholder
    // named, and the tool result the next request carried is that output, exactly.
    const recallCall = requests
      .flatMap((request) => request.body.messages.flatMap((message) => message.tool_calls ?? []))
      .find((call) => call.function.name === 'recall')!;
    const { handle } = JSON.parse(recallCall.function.arguments) as { handle: string };
    const placeholder = requests.find((request) =>
      request.body.messages.some((message) => String(message.content).includes(`recall "${handle}"`)),
    );
    expect(placeholder).toBeDefined();
    const answer = requests
      .at(-1)!
      .body.messages.find((message) => message.role === 'tool' && message.tool_call_id === recallCall.id);
    expect(answer?.content).toBe(first);
    expect((await recall.execute!({ handle }, { toolCallId: 'check', messages: [] })) as string).toBe(first);
    // Every request offered the tool and was valid.
    for (const request of requests) {
      expect(requestProblems(request.body.messages)).toEqual([]);
      const names = (request.body.tools as Array<{ function: { name: string } }>).map(
        (tool) => tool.function.name,
      );
      expect(names).toEqual(['read_file', 'recall']);
    }
  });

  it('answers a handle of another conversation with what to do instead', async () => {
    const store = new InMemoryCompactionStore();
    const recall = compactionRecallTool({ store, sessionId: 'other' });
    const text = await recall.execute!({ handle: 'a1b2c3' }, { toolCallId: 'call_1', messages: [] });
    expect(text).toMatch(/^No archived text "a1b2c3" in this conversation/);
    expect(recall.description).toContain('recall "<handle>"');
  });
});
