import { compactionMetadataOf, InvalidMessagesError, InvalidOptionsError } from '@compaction/core';
import { recordConversationEvents } from '@compaction/testing';
import type { TestServer } from '@compaction/testing/loopback-server';
import { describeConversationRecovery, expectCompactionSchedule } from '@compaction/testing/vitest';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  chatRequestProblems,
  chatRequestTokens,
  readFileOutput,
  scriptChatAgent,
} from './__fixtures__/openai-conversation-script.js';
import {
  compaction,
  contextWindow,
  estimator,
  model,
  startLoopbackOpenAI,
} from './__fixtures__/openai-conversation-setup.js';
import { createOpenAIConversation } from './index.js';

let server: TestServer;
let client: OpenAI;

beforeEach(async () => {
  ({ server, client } = await startLoopbackOpenAI());
});
afterEach(() => server.close());

const tools: OpenAI.Chat.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'read_file',
      description: 'Reads a file of the repository.',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
  },
];

function pathOf(call: OpenAI.Chat.ChatCompletionMessageFunctionToolCall): string {
  return (JSON.parse(call.function.arguments) as { path: string }).path;
}

describe('an OpenAI Chat Completions conversation over the real SDK', () => {
  it('compacts a long tool loop at the right steps, recovers one overflow and sends only valid requests', async () => {
    const toolSteps = 16;
    const exchanges = scriptChatAgent(server, {
      toolSteps,
      overflowAt: [11],
      parallelEvery: 5,
      estimator,
      contextWindow,
    });
    const initial: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: 'developer', content: 'You are a careful coding agent.' },
      { role: 'user', content: 'Read the modules one by one and prepare the refactoring.' },
    ];
    const snapshot = structuredClone({ initial, tools });

    const conversation = createOpenAIConversation({
      client,
      messages: initial,
      request: { model, max_completion_tokens: 1_024, tools },
      compaction: await compaction(),
    });
    const events = recordConversationEvents(conversation);

    let completion = await conversation.send();
    const outputs = new Map<string, string>();
    while (completion.choices[0]!.finish_reason === 'tool_calls') {
      const results = conversation.pendingToolCalls.map((call) => {
        const content = readFileOutput(pathOf(call));
        outputs.set(call.id, content);
        return { toolCallId: call.id, content };
      });
      conversation.addToolResults(results);
      completion = await conversation.send();
    }

    expect(completion.choices[0]!.message.content).toContain('ready');
    // Every request sent is valid for Chat Completions, and keeps the developer message first.
    for (const exchange of exchanges) {
      expect(chatRequestProblems(exchange.request.body)).toEqual([]);
      expect((exchange.request.body as { messages: unknown[] }).messages[0]).toEqual(initial[0]);
    }

    const answered = expectCompactionSchedule({
      exchanges,
      compactions: events.compactions,
      requests: events.requests,
      budget: conversation.compactor.budget,
      toolSteps,
      overflowStep: 11,
      minimumAutoCompactions: 3,
    });
    expect(events.overflows).toHaveLength(1);
    expect(events.overflows[0]!.error).toMatchObject({ maximumTokens: contextWindow });

    expect({ initial, tools }).toEqual(snapshot);
    expect(Object.isFrozen(initial[0])).toBe(false);

    const history = conversation.history;
    expect(history.slice(0, 2)).toEqual(initial);
    expect(history.filter((message) => message.role === 'assistant')).toHaveLength(toolSteps + 1);
    const results = history.filter((message) => message.role === 'tool');
    expect(results).toHaveLength(outputs.size);
    for (const result of results) expect(result.content).toBe(outputs.get(result.tool_call_id));
    expect(conversation.coreHistory.every((message) => compactionMetadataOf(message) === undefined)).toBe(
      true,
    );
    expect(conversation.coreContext.some((message) => compactionMetadataOf(message) !== undefined)).toBe(
      true,
    );
    const lastBody = answered.at(-1)!.request.body as { messages: unknown[] };
    expect(conversation.context.slice(0, -1)).toEqual(lastBody.messages);
    expect(chatRequestTokens(lastBody, estimator)).toBeLessThan(
      chatRequestTokens({ messages: history }, estimator) / 2,
    );
  });

  it('anchors counts on the reported prompt tokens: a tokenizer counting 30% more than the estimate', async () => {
    const exchanges = scriptChatAgent(server, { toolSteps: 12, estimator, usageScale: 1.3 });
    const conversation = createOpenAIConversation({
      client,
      messages: [{ role: 'user', content: 'Read everything.' }],
      request: { model, max_completion_tokens: 1_024 },
      compaction: await compaction(),
    });
    await conversation.run(undefined, { runTool: (call) => readFileOutput(pathOf(call)) });
    expect(conversation.compactions.length).toBeGreaterThanOrEqual(2);
    // Counted from estimates alone, requests would reach 1.3 times the trigger before compacting.
    const trigger = conversation.compactor.budget.trigger!;
    for (const exchange of exchanges) expect(exchange.inputTokens).toBeLessThanOrEqual(trigger * 1.1);
  });

  it('refuses turns that break tool pairing before sending anything', async () => {
    scriptChatAgent(server, { toolSteps: 3, estimator });
    const conversation = createOpenAIConversation({
      client,
      request: { model },
      compaction: await compaction(),
    });
    await conversation.send('Start.');
    const pending = conversation.pendingToolCalls;
    expect(pending).toHaveLength(1);
    await expect(conversation.send('Never mind.')).rejects.toBeInstanceOf(InvalidMessagesError);
    await expect(conversation.send()).rejects.toBeInstanceOf(InvalidMessagesError);
    expect(() => conversation.addToolResults([{ toolCallId: 'call_unknown', content: 'x' }])).toThrow(
      InvalidMessagesError,
    );
    expect(() => conversation.addUserMessage({ role: 'assistant', content: 'forged' })).toThrow(
      InvalidMessagesError,
    );
    expect(server.requests).toHaveLength(1);
    conversation.addToolResults([{ toolCallId: pending[0]!.id, content: 'done' }]);
    await conversation.send();
    expect(server.requests).toHaveLength(2);
  });

  it('runs a whole loop with run(): tool errors become error text, per-call request fields apply', async () => {
    scriptChatAgent(server, { toolSteps: 2, estimator });
    const conversation = createOpenAIConversation({
      client,
      request: { model, max_completion_tokens: 256 },
      compaction: await compaction(),
    });
    const completion = await conversation.run('Go.', {
      runTool: (call) => {
        if (pathOf(call).includes('-1-')) throw new Error('permission denied');
        return 'file contents';
      },
      request: { temperature: 0 },
    });
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    const bodies = server.requests.map((request) => request.body as Record<string, unknown>);
    expect(bodies.every((body) => body.temperature === 0 && body.max_completion_tokens === 256)).toBe(true);
    expect((bodies[1]!.messages as unknown[])[2]).toEqual({
      role: 'tool',
      tool_call_id: 'call_1_0',
      content: 'Error: permission denied',
    });
  });

  describeConversationRecovery({
    server: () => server,
    path: '/v1/chat/completions',
    refusal: {
      status: 400,
      body: {
        error: {
          message:
            "This model's maximum context length is 20000 tokens. However, your messages resulted in 90000 tokens.",
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      },
    },
    rateLimited: {
      status: 429,
      body: { error: { message: 'slow down', type: 'requests', code: 'rate_limit_exceeded' } },
    },
    rateLimitError: OpenAI.RateLimitError,
    longToolHistory,
    create: async (messages) =>
      createOpenAIConversation({
        client,
        ...(messages === undefined ? {} : { messages }),
        request: { model, max_completion_tokens: 1_024 },
        compaction: await compaction(),
      }),
  });

  it('takes exactly one of compactor and compaction', () => {
    expect(() => createOpenAIConversation({ client, request: { model } })).toThrow(InvalidOptionsError);
  });
});

/** A history of `calls` finished `read_file` calls with large outputs, ending with the assistant. */
function longToolHistory(calls: number): OpenAI.Chat.ChatCompletionMessageParam[] {
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Read the modules.' }];
  for (let index = 0; index < calls; index++) {
    const id = `call_history_${index}`;
    const path = `src/history-${index}.ts`;
    messages.push(
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path }) } },
        ],
      },
      { role: 'tool', tool_call_id: id, content: readFileOutput(path) },
    );
  }
  messages.push({ role: 'assistant', content: 'I have read them all.' });
  return messages;
}
